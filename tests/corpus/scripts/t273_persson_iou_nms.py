"""YOLO-style utilities with tensor ops: IoU (midpoint / corners), NMS, mean average precision."""

from collections import Counter

import torch

torch.manual_seed(5)


def intersection_over_union(boxes_preds, boxes_labels, box_format="midpoint"):
    if box_format == "midpoint":
        box1_x1 = boxes_preds[..., 0:1] - boxes_preds[..., 2:3] / 2
        box1_y1 = boxes_preds[..., 1:2] - boxes_preds[..., 3:4] / 2
        box1_x2 = boxes_preds[..., 0:1] + boxes_preds[..., 2:3] / 2
        box1_y2 = boxes_preds[..., 1:2] + boxes_preds[..., 3:4] / 2
        box2_x1 = boxes_labels[..., 0:1] - boxes_labels[..., 2:3] / 2
        box2_y1 = boxes_labels[..., 1:2] - boxes_labels[..., 3:4] / 2
        box2_x2 = boxes_labels[..., 0:1] + boxes_labels[..., 2:3] / 2
        box2_y2 = boxes_labels[..., 1:2] + boxes_labels[..., 3:4] / 2
    elif box_format == "corners":
        box1_x1, box1_y1 = boxes_preds[..., 0:1], boxes_preds[..., 1:2]
        box1_x2, box1_y2 = boxes_preds[..., 2:3], boxes_preds[..., 3:4]
        box2_x1, box2_y1 = boxes_labels[..., 0:1], boxes_labels[..., 1:2]
        box2_x2, box2_y2 = boxes_labels[..., 2:3], boxes_labels[..., 3:4]
    x1 = torch.max(box1_x1, box2_x1)
    y1 = torch.max(box1_y1, box2_y1)
    x2 = torch.min(box1_x2, box2_x2)
    y2 = torch.min(box1_y2, box2_y2)
    intersection = (x2 - x1).clamp(0) * (y2 - y1).clamp(0)
    box1_area = abs((box1_x2 - box1_x1) * (box1_y2 - box1_y1))
    box2_area = abs((box2_x2 - box2_x1) * (box2_y2 - box2_y1))
    return intersection / (box1_area + box2_area - intersection + 1e-6)


a = torch.tensor([[0.5, 0.5, 0.4, 0.4], [0.2, 0.2, 0.2, 0.2], [0.8, 0.8, 0.1, 0.1]])
b = torch.tensor([[0.55, 0.5, 0.4, 0.4], [0.7, 0.7, 0.2, 0.2], [0.8, 0.8, 0.1, 0.1]])
print("IoU midpoint:", intersection_over_union(a, b))
c1 = torch.tensor([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 3.0]])
c2 = torch.tensor([[1.0, 1.0, 2.0, 2.0], [0.0, 0.0, 1.0, 1.0]])
print("IoU corners:", intersection_over_union(c1, c2, "corners").squeeze(-1))


# pairwise IoU matrix with broadcasting (torchvision.ops.box_iou by hand)
def box_iou(b1, b2):
    area1 = (b1[:, 2] - b1[:, 0]) * (b1[:, 3] - b1[:, 1])
    area2 = (b2[:, 2] - b2[:, 0]) * (b2[:, 3] - b2[:, 1])
    lt = torch.max(b1[:, None, :2], b2[None, :, :2])
    rb = torch.min(b1[:, None, 2:], b2[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area1[:, None] + area2[None, :] - inter)


corners = torch.tensor(
    [[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 5, 5]], dtype=torch.float32
)
iou_mat = box_iou(corners, corners)
print("pairwise IoU:\n", iou_mat)
print("triu:", torch.triu(iou_mat, diagonal=1))
print("max off-diagonal:", (iou_mat - torch.eye(4)).max(dim=1))


def non_max_suppression(bboxes, iou_threshold, threshold, box_format="corners"):
    # bboxes: list of [class, prob, x1, y1, x2, y2]
    bboxes = [box for box in bboxes if box[1] > threshold]
    bboxes = sorted(bboxes, key=lambda x: x[1], reverse=True)
    after = []
    while bboxes:
        chosen = bboxes.pop(0)
        bboxes = [
            box
            for box in bboxes
            if box[0] != chosen[0]
            or intersection_over_union(
                torch.tensor(chosen[2:]), torch.tensor(box[2:]), box_format=box_format
            )
            < iou_threshold
        ]
        after.append(chosen)
    return after


boxes = [
    [1, 1.0, 0.5, 0.45, 0.4, 0.5],
    [1, 0.8, 0.5, 0.5, 0.2, 0.4],
    [1, 0.7, 0.25, 0.35, 0.3, 0.1],
    [1, 0.05, 0.1, 0.1, 0.1, 0.1],
    [2, 0.9, 0.5, 0.45, 0.4, 0.5],
]
kept = non_max_suppression(boxes, iou_threshold=7 / 20, threshold=0.2, box_format="midpoint")
print("NMS kept:", kept)

# vectorised NMS with sort / index ops
scores = torch.rand(8)
xy = torch.rand(8, 2) * 10
wh = torch.rand(8, 2) * 6 + 2
cand = torch.cat([xy, xy + wh], dim=1)
order = scores.argsort(descending=True)
print("scores:", scores)
print("order:", order)
keep = []
suppressed = torch.zeros(8, dtype=torch.bool)
ious = box_iou(cand, cand)
for i in order.tolist():
    if suppressed[i]:
        continue
    keep.append(i)
    suppressed |= ious[i] > 0.3
print("vectorised keep:", keep, "suppressed:", suppressed)
print("sorted scores:", torch.sort(scores, descending=True))


def mean_average_precision(pred_boxes, true_boxes, iou_threshold=0.5, num_classes=2):
    # boxes: [train_idx, class, prob, x, y, w, h]
    average_precisions = []
    epsilon = 1e-6
    for c in range(num_classes):
        detections = [d for d in pred_boxes if d[1] == c]
        ground_truths = [t for t in true_boxes if t[1] == c]
        amount_bboxes = Counter([gt[0] for gt in ground_truths])
        for key, val in amount_bboxes.items():
            amount_bboxes[key] = torch.zeros(val)
        detections.sort(key=lambda x: x[2], reverse=True)
        TP = torch.zeros(len(detections))
        FP = torch.zeros(len(detections))
        total_true = len(ground_truths)
        if total_true == 0:
            continue
        for d_idx, det in enumerate(detections):
            gts = [b for b in ground_truths if b[0] == det[0]]
            best_iou, best_gt = 0, -1
            for idx, gt in enumerate(gts):
                iou = intersection_over_union(torch.tensor(det[3:]), torch.tensor(gt[3:]))
                if iou > best_iou:
                    best_iou, best_gt = iou, idx
            if best_iou > iou_threshold and amount_bboxes[det[0]][best_gt] == 0:
                TP[d_idx] = 1
                amount_bboxes[det[0]][best_gt] = 1
            else:
                FP[d_idx] = 1
        TP_cumsum = torch.cumsum(TP, dim=0)
        FP_cumsum = torch.cumsum(FP, dim=0)
        recalls = TP_cumsum / (total_true + epsilon)
        precisions = torch.divide(TP_cumsum, (TP_cumsum + FP_cumsum + epsilon))
        precisions = torch.cat((torch.tensor([1]), precisions))
        recalls = torch.cat((torch.tensor([0]), recalls))
        print(f"  class {c}: TP {TP.tolist()} precision {precisions} recall {recalls}")
        average_precisions.append(torch.trapz(precisions, recalls))
    return sum(average_precisions) / len(average_precisions)


t_boxes = [
    [0, 0, 1, 0.55, 0.2, 0.3, 0.2],
    [0, 0, 1, 0.35, 0.6, 0.3, 0.2],
    [0, 1, 1, 0.8, 0.7, 0.2, 0.2],
    [1, 0, 1, 0.5, 0.5, 0.4, 0.4],
]
p_boxes = [
    [0, 0, 0.9, 0.55, 0.2, 0.3, 0.2],
    [0, 0, 0.8, 0.35, 0.6, 0.3, 0.2],
    [0, 0, 0.7, 0.8, 0.7, 0.2, 0.2],
    [0, 1, 0.6, 0.8, 0.72, 0.2, 0.2],
    [1, 0, 0.5, 0.52, 0.5, 0.4, 0.4],
]
mAP = mean_average_precision(p_boxes, t_boxes)
print("mAP:", mAP)
print("trapezoid:", torch.trapezoid(torch.tensor([1.0, 0.5, 0.25]), torch.tensor([0.0, 0.5, 1.0])))

# cell-relative to image-relative conversion (YOLO grid)
S = 3
pred = torch.rand(2, S, S, 5)
cell_idx = torch.arange(S).repeat(2, S, 1).unsqueeze(-1)
print("cell_idx:", cell_idx.shape, cell_idx[0, :, :, 0])
x = 1 / S * (pred[..., 1:2] + cell_idx)
y = 1 / S * (pred[..., 2:3] + cell_idx.permute(0, 2, 1, 3))
conv = torch.cat((pred[..., :1], x, y), dim=-1)
print("converted[0,1]:", conv[0, 1])
best_box = pred[..., :1].argmax(-1)
print("flatten:", conv.reshape(2, S * S, -1).shape, best_box.shape)
print("where:", torch.where(pred[..., 0] > 0.5, 1, 0))
print("nonzero:", torch.nonzero(pred[0, ..., 0] > 0.5))
print("sum exists:", torch.flatten(pred[..., 0] > 0.5, end_dim=-2).sum(-1))

# "Einsum is all you need" (used for batched IoU / attention scores)
x = torch.rand((2, 3))
v = torch.rand((1, 3))
print("permute:", torch.einsum("ij->ji", x).shape)
print("sum:", torch.einsum("ij->", x))
print("column sum:", torch.einsum("ij->j", x))
print("row sum:", torch.einsum("ij->i", x))
print("matvec:", torch.einsum("ij,kj->ik", x, v))
print("matmul:", torch.einsum("ij,kj->ik", x, x))
print("dot first row:", torch.einsum("i,i->", x[0], x[0]))
print("hadamard:", torch.einsum("ij,ij->ij", x, x))
print("outer:", torch.einsum("i,j->ij", x[0], x[1]))
a3, b3 = torch.rand((3, 2, 5)), torch.rand((3, 5, 3))
print(
    "batch matmul:",
    torch.einsum("ijk,ikl->ijl", a3, b3).shape,
    torch.allclose(torch.einsum("ijk,ikl->ijl", a3, b3), a3 @ b3),
)
sq = torch.rand((3, 3))
print("diagonal:", torch.einsum("ii->i", sq), "trace:", torch.einsum("ii->", sq))
print("list operands:", torch.einsum("ij,jk->ik", [x, x.T]).shape)
try:
    print("sublist format:", torch.einsum(x, [0, 1], x.T, [1, 2], [0, 2]).shape)
except Exception as e:
    print("sublist format failed:", type(e).__name__)
try:
    torch.einsum("ij->k", x)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.einsum("ij,jk->ik", x, x)
except RuntimeError as e:
    print("RuntimeError:", e)
