"""PyImageSearch style: "Object detection: bounding box regression + class label with PyTorch" """

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(3)
CFG = dict(IMG=24, N=96, BATCH=16, EPOCHS=5, LR=2e-3, NUM_CLASSES=2, BBOX_W=1.0, CLS_W=1.0)
print("config:", CFG)


class SquaresCircles(Dataset):
    """Each image holds one bright object; class 0 = filled square, 1 = ring."""

    def __init__(self, n, size):
        self.size = size
        g = torch.Generator().manual_seed(11)
        self.boxes = []
        self.labels = torch.randint(0, 2, (n,), generator=g)
        self.images = torch.zeros(n, 3, size, size)
        for i in range(n):
            w = int(torch.randint(6, 12, (1,), generator=g))
            x0 = int(torch.randint(0, size - w, (1,), generator=g))
            y0 = int(torch.randint(0, size - w, (1,), generator=g))
            if self.labels[i] == 0:
                self.images[i, :, y0 : y0 + w, x0 : x0 + w] = 1.0
            else:
                self.images[i, :, y0 : y0 + w, x0 : x0 + w] = 1.0
                self.images[i, :, y0 + 2 : y0 + w - 2, x0 + 2 : x0 + w - 2] = 0.0
            # normalised (startX, startY, endX, endY)
            self.boxes.append(torch.tensor([x0, y0, x0 + w, y0 + w], dtype=torch.float32) / size)
        self.boxes = torch.stack(self.boxes)
        self.images += 0.05 * torch.randn(self.images.shape, generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.images[idx], self.labels[idx], self.boxes[idx]


ds = SquaresCircles(CFG["N"], CFG["IMG"])
print("dataset len:", len(ds))
img, lab, box = ds[0]
print("sample:", img.shape, lab, box)
print("boxes min/max:", ds.boxes.min().item(), ds.boxes.max().item())
mean = ds.images.mean(dim=(0, 2, 3))
std = ds.images.std(dim=(0, 2, 3))
print("channel mean:", mean, "std:", std)

train_ds = torch.utils.data.Subset(ds, range(0, 72))
test_ds = torch.utils.data.Subset(ds, range(72, 96))
train_loader = DataLoader(train_ds, batch_size=CFG["BATCH"], shuffle=True)
test_loader = DataLoader(test_ds, batch_size=CFG["BATCH"], shuffle=False)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 16, 3, padding=1),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d((3, 3)),
        )
        self.out_features = 16 * 9

    def forward(self, x):
        return torch.flatten(self.features(x), 1)


class ObjectDetector(nn.Module):
    def __init__(self, baseModel, numClasses):
        super().__init__()
        self.baseModel = baseModel
        self.regressor = nn.Sequential(
            nn.Linear(baseModel.out_features, 32), nn.ReLU(), nn.Linear(32, 4), nn.Sigmoid()
        )
        self.classifier = nn.Sequential(
            nn.Linear(baseModel.out_features, 32),
            nn.ReLU(),
            nn.Dropout(0.2),
            nn.Linear(32, numClasses),
        )

    def forward(self, x):
        features = self.baseModel(x)
        return self.regressor(features), self.classifier(features)


base = Backbone()
for p in list(base.parameters())[:2]:
    p.requires_grad = False  # freeze first conv like a pretrained backbone
detector = ObjectDetector(base, CFG["NUM_CLASSES"])
print(detector)
trainable = sum(p.numel() for p in detector.parameters() if p.requires_grad)
frozen = sum(p.numel() for p in detector.parameters() if not p.requires_grad)
print("trainable/frozen params:", trainable, frozen)

classLossFunc = nn.CrossEntropyLoss()
bboxLossFunc = nn.MSELoss()
opt = torch.optim.Adam(filter(lambda p: p.requires_grad, detector.parameters()), lr=CFG["LR"])
print("optimizer groups:", len(opt.param_groups), "n tensors:", len(opt.param_groups[0]["params"]))


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / (area_a[:, None] + area_b[None, :] - inter)


print(
    "iou sanity:",
    box_iou(
        torch.tensor([[0.0, 0.0, 2.0, 2.0]]),
        torch.tensor([[1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 2.0, 2.0]]),
    ),
)

H = {"total_train_loss": [], "train_class_acc": [], "val_iou": []}
for e in range(CFG["EPOCHS"]):
    detector.train()
    totalTrainLoss, trainCorrect = 0.0, 0
    for images, labels, bboxes in train_loader:
        images = (images - mean[None, :, None, None]) / std[None, :, None, None]
        bboxPreds, clsPreds = detector(images)
        bboxLoss = bboxLossFunc(bboxPreds, bboxes)
        classLoss = classLossFunc(clsPreds, labels)
        totalLoss = CFG["BBOX_W"] * bboxLoss + CFG["CLS_W"] * classLoss
        opt.zero_grad()
        totalLoss.backward()
        opt.step()
        totalTrainLoss += totalLoss.item()
        trainCorrect += (clsPreds.argmax(1) == labels).sum().item()
    detector.eval()
    ious = []
    with torch.no_grad():
        for images, labels, bboxes in test_loader:
            images = (images - mean.view(1, 3, 1, 1)) / std.view(1, 3, 1, 1)
            bp, cp = detector(images)
            ious.append(box_iou(bp, bboxes).diagonal())
    miou = torch.cat(ious).mean().item()
    H["total_train_loss"].append(totalTrainLoss / len(train_loader))
    H["train_class_acc"].append(trainCorrect / len(train_ds))
    H["val_iou"].append(miou)
    print(
        f"[INFO] EPOCH {e + 1}/{CFG['EPOCHS']} train loss {H['total_train_loss'][-1]:.5f} "
        f"cls acc {H['train_class_acc'][-1]:.4f} val mIoU {miou:.4f}"
    )

print("frozen conv weight still has no grad:", base.features[0].weight.grad is None)
print("bn running_mean:", base.features[1].running_mean)
print("bn running_var:", base.features[1].running_var)
print("bn num_batches_tracked:", base.features[1].num_batches_tracked)

# prediction on one test image, converted back to pixel coordinates
detector.eval()
img, lab, box = test_ds[0]
with torch.no_grad():
    bp, cp = detector(((img - mean[:, None, None]) / std[:, None, None]).unsqueeze(0))
probs = F.softmax(cp, dim=1)
i = probs.argmax(dim=1)
print("pred label:", i.item(), "prob:", probs.max().item(), "true:", lab.item())
startX, startY, endX, endY = (bp[0] * CFG["IMG"]).round().int().tolist()
print(
    "pred box px:",
    (startX, startY, endX, endY),
    "true box px:",
    (box * CFG["IMG"]).round().int().tolist(),
)

# simple NMS written by hand over a fake set of proposals
cand = torch.tensor(
    [[0.1, 0.1, 0.5, 0.5], [0.12, 0.1, 0.52, 0.5], [0.6, 0.6, 0.9, 0.9], [0.58, 0.62, 0.88, 0.9]]
)
scores = torch.tensor([0.9, 0.75, 0.6, 0.8])
order = scores.argsort(descending=True)
keep = []
while order.numel() > 0:
    k = order[0].item()
    keep.append(k)
    if order.numel() == 1:
        break
    ious = box_iou(cand[k : k + 1], cand[order[1:]])[0]
    order = order[1:][ious <= 0.5]
print("nms keep:", keep)

# ---- anchor generation + decoding like an SSD/YOLO head ----
fm = 3
stride = CFG["IMG"] / fm
cy, cx = torch.meshgrid(
    torch.arange(fm, dtype=torch.float32), torch.arange(fm, dtype=torch.float32), indexing="ij"
)
centers = torch.stack([(cx + 0.5) * stride, (cy + 0.5) * stride], dim=-1).view(-1, 2)
sizes = torch.tensor([[6.0, 6.0], [10.0, 10.0], [8.0, 12.0]])
anchors = torch.cat(
    [
        centers.repeat_interleave(3, 0) - sizes.repeat(fm * fm, 1) / 2,
        centers.repeat_interleave(3, 0) + sizes.repeat(fm * fm, 1) / 2,
    ],
    dim=1,
)
print("anchors:", anchors.shape, anchors[:4])
deltas = torch.randn(anchors.shape[0], 4) * 0.1
wh = anchors[:, 2:] - anchors[:, :2]
ctr = anchors[:, :2] + 0.5 * wh
pred_ctr = ctr + deltas[:, :2] * wh
pred_wh = wh * torch.exp(deltas[:, 2:])
decoded = torch.cat([pred_ctr - 0.5 * pred_wh, pred_ctr + 0.5 * pred_wh], dim=1).clamp(
    0, CFG["IMG"]
)
print("decoded[:3]:", decoded[:3])
gt = torch.tensor([[4.0, 4.0, 12.0, 12.0], [14.0, 10.0, 22.0, 20.0]])
ious = box_iou(anchors, gt)
best_iou, best_gt = ious.max(dim=1)
print(
    "best anchor per gt:",
    ious.argmax(dim=0),
    "matched anchors:",
    (best_iou > 0.25).nonzero().flatten(),
)
labels_anchor = torch.where(best_iou > 0.25, best_gt + 1, torch.zeros_like(best_gt))
print("anchor labels:", labels_anchor)

# ---- decoder / upsampling pieces used in segmentation heads ----
feat = torch.randn(1, 4, 3, 3)
print("interpolate nearest:", F.interpolate(feat, scale_factor=2, mode="nearest").shape)
print(
    "interpolate bilinear ac=True:",
    F.interpolate(feat, size=(5, 5), mode="bilinear", align_corners=True)[0, 0, 0],
)
print(
    "nn.Upsample:", nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)(feat)[0, 0, 0]
)
ct = nn.ConvTranspose2d(4, 2, kernel_size=2, stride=2)
print("ConvTranspose2d:", ct(feat).shape, ct)
ct2 = nn.ConvTranspose2d(4, 2, kernel_size=3, stride=2, padding=1, output_padding=1)
print("ConvTranspose2d output_padding:", ct2(feat).shape)
ps = nn.PixelShuffle(2)
print(
    "PixelShuffle:",
    ps(torch.randn(1, 8, 3, 3)).shape,
    "unshuffle:",
    nn.PixelUnshuffle(2)(torch.randn(1, 2, 6, 6)).shape,
)
print(
    "F.pad reflect:", F.pad(torch.arange(9.0).view(1, 1, 3, 3), (1, 1, 1, 1), mode="reflect")[0, 0]
)
print("F.pad replicate:", F.pad(torch.arange(4.0).view(1, 1, 4), (2, 1), mode="replicate"))
print("F.pad constant:", F.pad(torch.ones(2, 2), (1, 0, 0, 1), value=-1.0))
print("circular pad:", F.pad(torch.arange(4.0).view(1, 1, 4), (1, 1), mode="circular"))
patches = F.unfold(torch.arange(16.0).view(1, 1, 4, 4), kernel_size=2, stride=2)
print("unfold patches:", patches.shape, patches)
print("fold back:", F.fold(patches, output_size=(4, 4), kernel_size=2, stride=2)[0, 0])
print(
    "max_pool with indices:",
    F.max_pool2d(torch.arange(16.0).view(1, 1, 4, 4), 2, return_indices=True),
)
pooled, idx = F.max_pool2d(torch.arange(16.0).view(1, 1, 4, 4), 2, return_indices=True)
print("max_unpool:", F.max_unpool2d(pooled, idx, 2)[0, 0])
print(
    "avg_pool ceil_mode:",
    F.avg_pool2d(torch.ones(1, 1, 5, 5), 2, ceil_mode=True).shape,
    "count_include_pad=False:",
    F.avg_pool2d(torch.ones(1, 1, 3, 3), 3, stride=1, padding=1, count_include_pad=False)[0, 0, 0],
)
print("adaptive max:", F.adaptive_max_pool2d(torch.arange(25.0).view(1, 1, 5, 5), (2, 2))[0, 0])
theta = torch.tensor([[[1.0, 0.0, 0.25], [0.0, 1.0, 0.0]]])
grid = F.affine_grid(theta, size=(1, 1, 4, 4), align_corners=False)
print("affine_grid:", grid.shape, grid[0, 0])
print(
    "grid_sample:",
    F.grid_sample(torch.arange(16.0).view(1, 1, 4, 4), grid, align_corners=False)[0, 0],
)
try:
    F.interpolate(feat, scale_factor=2, mode="bilinear", align_corners=True, size=(4, 4))
except ValueError as e:
    print("interpolate error:", e)
try:
    nn.Conv2d(3, 8, 3)(torch.randn(1, 4, 8, 8))
except RuntimeError as e:
    print("conv channel error:", e)
try:
    nn.Conv2d(3, 8, 5)(torch.randn(1, 3, 3, 3))
except RuntimeError as e:
    print("conv kernel error:", e)
