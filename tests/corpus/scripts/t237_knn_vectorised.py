"""EECS 498 A1 style: k-nearest neighbours with two loops / one loop / no loops"""

import statistics

import torch

torch.manual_seed(0)
num_train, num_test, D, C = 60, 12, 3 * 4 * 4, 4
centers = torch.randn(C, D) * 2
y_train = torch.randint(0, C, (num_train,))
x_train = (centers[y_train] + torch.randn(num_train, D)).view(num_train, 3, 4, 4)
y_test = torch.randint(0, C, (num_test,))
x_test = (centers[y_test] + 1.3 * torch.randn(num_test, D)).view(num_test, 3, 4, 4)
print("train", x_train.shape, x_train.dtype, y_train[:10])
print("test", x_test.shape, y_test)
print("class counts", torch.bincount(y_train, minlength=C))


def compute_distances_two_loops(x_train, x_test):
    num_train = x_train.shape[0]
    num_test = x_test.shape[0]
    dists = x_train.new_zeros(num_train, num_test)
    xtr = x_train.flatten(1)
    xte = x_test.flatten(1)
    for i in range(num_train):
        for j in range(num_test):
            dists[i, j] = ((xtr[i] - xte[j]) ** 2).sum().sqrt()
    return dists


def compute_distances_one_loop(x_train, x_test):
    num_train = x_train.shape[0]
    num_test = x_test.shape[0]
    dists = x_train.new_zeros(num_train, num_test)
    xtr = x_train.flatten(1)
    xte = x_test.flatten(1)
    for i in range(num_train):
        dists[i] = torch.sum((xtr[i] - xte) ** 2, dim=1).sqrt()
    return dists


def compute_distances_no_loops(x_train, x_test):
    xtr = x_train.flatten(1)
    xte = x_test.flatten(1)
    tr2 = (xtr**2).sum(dim=1, keepdim=True)
    te2 = (xte**2).sum(dim=1)
    cross = xtr @ xte.t()
    return (tr2 + te2 - 2 * cross).clamp(min=0).sqrt()


# test on float64 so the three agree closely
xtr64, xte64 = x_train.double(), x_test.double()
d2 = compute_distances_two_loops(xtr64, xte64)
d1 = compute_distances_one_loop(xtr64, xte64)
d0 = compute_distances_no_loops(xtr64, xte64)
print("dists shape", d0.shape, d0.dtype)
print("two vs one loop diff", (d2 - d1).abs().max().item() < 1e-10)
print("two vs no loop rel err", ((d2 - d0).norm() / d2.norm()).item() < 1e-10)
dc = torch.cdist(x_train.flatten(1), x_test.flatten(1))
print("cdist max abs diff vs float64 < 1e-4:", (dc.double() - d2).abs().max().item() < 1e-4)
try:
    torch.cdist(x_train.flatten(1), x_test.flatten(2))  # forgot to flatten the channels
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.cdist(torch.tensor([[0.0, 0.0], [3.0, 4.0]]), torch.tensor([[0.0, 0.0], [1.0, 1.0]])))
print(
    torch.cdist(torch.tensor([[0.0, 0.0], [3.0, 4.0]]), torch.tensor([[0.0, 0.0], [1.0, 1.0]]), p=1)
)
print(
    torch.cdist(
        torch.tensor([[0.0, 0.0], [3.0, 4.0]]),
        torch.tensor([[0.0, 0.0], [1.0, 1.0]]),
        p=float("inf"),
    )
)
print(
    torch.nn.functional.pairwise_distance(
        torch.tensor([[0.0, 0.0], [3.0, 4.0]]), torch.tensor([[0.0, 0.0], [1.0, 1.0]])
    )
)
print(
    torch.dist(torch.tensor([0.0, 0.0]), torch.tensor([3.0, 4.0])),
    torch.pdist(torch.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])),
)
print(
    torch.nn.functional.cosine_similarity(
        torch.tensor([[1.0, 0.0], [1.0, 1.0]]), torch.tensor([[0.0, 1.0], [2.0, 2.0]])
    )
)
print(d0[:3, :4])


def predict_labels(dists, y_train, k=1):
    num_train, num_test = dists.shape
    _, idx = dists.topk(k, dim=0, largest=False)
    neighbour_labels = y_train[idx]  # (k, num_test)
    y_pred = torch.zeros(num_test, dtype=torch.int64)
    for j in range(num_test):
        counts = torch.bincount(neighbour_labels[:, j], minlength=C)
        y_pred[j] = counts.argmax()
    return y_pred


def predict_labels_mode(dists, y_train, k=1):
    _, idx = dists.topk(k, dim=0, largest=False)
    return y_train[idx].mode(dim=0).values


class KnnClassifier:
    def __init__(self, x_train, y_train):
        self.x_train = x_train.contiguous()
        self.y_train = y_train.contiguous()

    def predict(self, x_test, k=1):
        dists = compute_distances_no_loops(self.x_train, x_test)
        return predict_labels(dists, self.y_train, k=k)

    def check_accuracy(self, x_test, y_test, k=1, quiet=False):
        y_pred = self.predict(x_test, k=k)
        num_correct = (y_test == y_pred).sum().item()
        accuracy = 100.0 * num_correct / x_test.shape[0]
        if not quiet:
            print(f"Got {num_correct} / {x_test.shape[0]} correct; accuracy is {accuracy:.2f}%")
        return accuracy


dists = compute_distances_no_loops(x_train, x_test)
for k in (1, 3, 5):
    print(k, predict_labels(dists, y_train, k), predict_labels_mode(dists, y_train, k))

clf = KnnClassifier(x_train, y_train)
clf.check_accuracy(x_test, y_test, k=1)
clf.check_accuracy(x_test, y_test, k=5)


def knn_cross_validate(x_train, y_train, num_folds=5, k_choices=None):
    if k_choices is None:
        k_choices = [1, 3, 5, 8, 10]
    x_folds = torch.chunk(x_train, num_folds)
    y_folds = torch.chunk(y_train, num_folds)
    k_to_acc = {}
    for k in k_choices:
        accs = []
        for i in range(num_folds):
            xtr = torch.cat(x_folds[:i] + x_folds[i + 1 :])
            ytr = torch.cat(y_folds[:i] + y_folds[i + 1 :])
            accs.append(
                KnnClassifier(xtr, ytr).check_accuracy(x_folds[i], y_folds[i], k=k, quiet=True)
            )
        k_to_acc[k] = accs
    return k_to_acc


k_to_acc = knn_cross_validate(x_train, y_train, num_folds=4)
for k, accs in sorted(k_to_acc.items()):
    print(
        f"k = {k:2d}: " + ", ".join(f"{a:.2f}" for a in accs),
        "mean",
        round(statistics.mean(accs), 3),
    )
acc_t = torch.tensor([k_to_acc[k] for k in sorted(k_to_acc)])
print(acc_t.mean(dim=1), acc_t.std(dim=1))
best_k = max(k_to_acc, key=lambda k: statistics.mean(k_to_acc[k]))
print("best k", best_k)
print(
    "chunk sizes",
    [c.shape[0] for c in torch.chunk(torch.arange(10), 3)],
    [c.shape[0] for c in torch.split(torch.arange(10), [2, 3, 5])],
)
print(torch.tensor_split(torch.arange(10), 3), torch.split(torch.arange(7), 3))


# --- EECS 498 A5 style: boxes, IoU without loops, non-maximum suppression by hand ---
def box_area(b):
    return (b[:, 2] - b[:, 0]).clamp(min=0) * (b[:, 3] - b[:, 1]).clamp(min=0)


def iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (box_area(a)[:, None] + box_area(b)[None, :] - inter)


def nms(boxes, scores, iou_threshold=0.5, topk=None):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i.item())
        if order.numel() == 1:
            break
        ious = iou(boxes[i].unsqueeze(0), boxes[order[1:]]).squeeze(0)
        order = order[1:][ious <= iou_threshold]
    keep = torch.tensor(keep, dtype=torch.long)
    return keep[:topk] if topk is not None else keep


torch.manual_seed(5)
xy = torch.rand(10, 2) * 10
wh = torch.rand(10, 2) * 4 + 1
boxes = torch.cat([xy, xy + wh], dim=1)
scores = torch.rand(10)
print(boxes.round(decimals=3))
I = iou(boxes, boxes)
print("iou diag", I.diagonal(), I.shape, (I > 0.1).sum(1))
keep = nms(boxes, scores, 0.3)
print("keep", keep, scores[keep])
print("keep top2", nms(boxes, scores, 0.3, topk=2))
grid_y, grid_x = torch.meshgrid(torch.arange(3), torch.arange(4), indexing="ij")
centres = torch.stack([grid_x, grid_y], dim=-1).float().add_(0.5).mul_(8)
print("grid", centres.shape, centres[1, 2], centres.view(-1, 2)[:5])
anchors = torch.tensor([[1.0, 1.0], [2.0, 0.5], [0.5, 2.0]])
anc = torch.cat(
    [
        centres.view(-1, 1, 2) - anchors.view(1, -1, 2) * 4,
        centres.view(-1, 1, 2) + anchors.view(1, -1, 2) * 4,
    ],
    dim=-1,
)
print("anchors", anc.shape, anc[0])
gt = torch.tensor([[2.0, 2.0, 10.0, 10.0], [15.0, 5.0, 30.0, 20.0]])
ious_ag = iou(anc.view(-1, 4), gt)
best_iou, best_gt = ious_ag.max(dim=1)
print("best iou per gt", ious_ag.max(dim=0), "positives", (best_iou > 0.4).nonzero().view(-1))
offsets = torch.cat(
    [
        (gt[best_gt, :2] - anc.view(-1, 4)[:, :2]) / 8,
        torch.log(
            (gt[best_gt, 2:] - gt[best_gt, :2]) / (anc.view(-1, 4)[:, 2:] - anc.view(-1, 4)[:, :2])
        ),
    ],
    dim=1,
)
print(offsets[:3], offsets.shape)
