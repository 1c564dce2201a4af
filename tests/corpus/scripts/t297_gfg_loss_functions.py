"""GeeksforGeeks style: "Loss functions in PyTorch explained one by one" """

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)

pred = torch.randn(4, 3, requires_grad=True)
target_reg = torch.randn(4, 3)
print("pred:", pred)
print("target:", target_reg)

# 1. MSELoss
for red in ["mean", "sum", "none"]:
    loss = nn.MSELoss(reduction=red)(pred, target_reg)
    print(f"MSELoss({red}):", loss)
mse = nn.MSELoss()
print(mse)
l = mse(pred, target_reg)
l.backward()
print("MSE grad:", pred.grad)
pred.grad = None

# 2. L1Loss
print("L1Loss:", nn.L1Loss()(pred, target_reg))
print("F.l1_loss sum:", F.l1_loss(pred, target_reg, reduction="sum"))

# 3. SmoothL1 / Huber
for beta in [0.5, 1.0, 2.0]:
    print(f"SmoothL1Loss(beta={beta}):", nn.SmoothL1Loss(beta=beta)(pred, target_reg))
print("HuberLoss(delta=0.5):", nn.HuberLoss(delta=0.5)(pred, target_reg))
print("huber none:", F.huber_loss(pred, target_reg, reduction="none", delta=1.0))

# 4. CrossEntropyLoss
logits = torch.randn(5, 4, requires_grad=True)
labels = torch.tensor([1, 0, 3, 3, 2])
ce = nn.CrossEntropyLoss()
print(ce)
print("CE:", ce(logits, labels))
print("CE none:", F.cross_entropy(logits, labels, reduction="none"))
print("CE manual:", -(F.log_softmax(logits, dim=1)[torch.arange(5), labels]).mean())
print("CE label_smoothing 0.1:", F.cross_entropy(logits, labels, label_smoothing=0.1))
w = torch.tensor([1.0, 2.0, 0.5, 1.0])
print("CE weighted:", F.cross_entropy(logits, labels, weight=w))
print("CE ignore_index=3:", F.cross_entropy(logits, labels, ignore_index=3))
soft = F.softmax(torch.randn(5, 4), dim=1)
print("CE with probabilities target:", F.cross_entropy(logits, soft))
print("CE weighted + smoothing:", F.cross_entropy(logits, labels, weight=w, label_smoothing=0.2))
seq_logits = torch.randn(2, 4, 3)  # N, C, L
seq_labels = torch.tensor([[0, 1, 2], [3, 3, 0]])
print("CE K-dim:", F.cross_entropy(seq_logits, seq_labels))
ce(logits, labels).backward()
print("CE grad row0:", logits.grad[0], "row sums:", logits.grad.sum(1))
try:
    ce(logits, labels.float())
except RuntimeError as e:
    print("CE float target error:", e)
try:
    onehot = F.one_hot(labels, num_classes=4)
    ce(logits, onehot)
except RuntimeError as e:
    print("CE one-hot long target error:", e)
try:
    ce(logits, torch.tensor([1, 0, 4, 3, 2]))
except (IndexError, RuntimeError) as e:
    print("CE out-of-range error:", type(e).__name__, e)

# 5. NLLLoss
logp = F.log_softmax(logits.detach(), dim=1)
print("NLLLoss:", nn.NLLLoss()(logp, labels))
print("NLLLoss sum:", nn.NLLLoss(reduction="sum")(logp, labels))

# 6. BCELoss and BCEWithLogitsLoss
z = torch.tensor([0.8, -1.2, 2.5, 0.0, -3.0])
yb = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
print("BCELoss:", nn.BCELoss()(torch.sigmoid(z), yb))
print("BCEWithLogits:", nn.BCEWithLogitsLoss()(z, yb))
print("BCEWithLogits pos_weight:", nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))(z, yb))
print(
    "BCE weight none:",
    F.binary_cross_entropy(
        torch.sigmoid(z), yb, weight=torch.tensor([1.0, 1.0, 2.0, 2.0, 1.0]), reduction="none"
    ),
)
print(
    "BCE on extreme probs:",
    F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])),
)
try:
    F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))
except RuntimeError as e:
    print("BCE error:", e)
try:
    nn.BCELoss()(torch.sigmoid(z), yb[:3])
except ValueError as e:
    print("BCE size error:", e)

# 7. KLDivLoss
p_log = F.log_softmax(torch.randn(3, 5), dim=1)
q_prob = F.softmax(torch.randn(3, 5), dim=1)
print("KLDiv batchmean:", nn.KLDivLoss(reduction="batchmean")(p_log, q_prob))
print("KLDiv sum:", F.kl_div(p_log, q_prob, reduction="sum"))
print("KLDiv log_target:", F.kl_div(p_log, q_prob.log(), reduction="batchmean", log_target=True))

# 8. Margin-based
x1 = torch.randn(4)
x2 = torch.randn(4)
yr = torch.tensor([1.0, -1.0, 1.0, -1.0])
print("MarginRankingLoss:", nn.MarginRankingLoss(margin=0.5)(x1, x2, yr))
print("HingeEmbeddingLoss:", nn.HingeEmbeddingLoss(margin=1.0)(x1.abs(), yr))
e1, e2 = torch.randn(4, 6), torch.randn(4, 6)
print("CosineEmbeddingLoss:", nn.CosineEmbeddingLoss(margin=0.2)(e1, e2, yr))
print("SoftMarginLoss:", nn.SoftMarginLoss()(x1, yr))
mlm_in = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
mlm_t = torch.tensor([[3, 0, -1, 1]])
print("MultiLabelMarginLoss:", nn.MultiLabelMarginLoss()(mlm_in, mlm_t))
print(
    "MultiLabelSoftMarginLoss:",
    nn.MultiLabelSoftMarginLoss()(
        torch.randn(3, 4), torch.tensor([[1.0, 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 0]])
    ),
)
print("MultiMarginLoss:", nn.MultiMarginLoss()(torch.randn(3, 4), torch.tensor([0, 3, 1])))

# 9. Poisson / Gaussian NLL
rates = torch.tensor([0.5, 1.0, 2.0])
counts = torch.tensor([0.0, 2.0, 1.0])
print("PoissonNLLLoss log_input:", nn.PoissonNLLLoss()(rates.log(), counts))
print("PoissonNLLLoss no log:", nn.PoissonNLLLoss(log_input=False)(rates, counts))
print("PoissonNLLLoss full:", nn.PoissonNLLLoss(full=True)(rates.log(), counts))
mu = torch.tensor([[0.0, 1.0], [2.0, -1.0]])
tgt = torch.tensor([[0.5, 0.5], [1.5, -2.0]])
var = torch.tensor([[1.0, 0.5], [2.0, 0.1]])
print("GaussianNLLLoss:", nn.GaussianNLLLoss()(mu, tgt, var))
print("GaussianNLLLoss full:", nn.GaussianNLLLoss(full=True, reduction="sum")(mu, tgt, var))

# 10. CTC-free sequence: TripletMarginLoss quick peek
anc, pos, neg = torch.randn(3, 8), torch.randn(3, 8), torch.randn(3, 8)
print("TripletMarginLoss:", nn.TripletMarginLoss(margin=1.0)(anc, pos, neg))


# 11. Focal loss written by hand
def focal_loss(logits, targets, gamma=2.0, alpha=0.25):
    p = torch.sigmoid(logits)
    ce_loss = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).mean()


print("focal loss:", focal_loss(z, yb))

# 12. Dice loss by hand
probs = torch.sigmoid(torch.randn(2, 1, 4, 4))
mask = (torch.rand(2, 1, 4, 4) > 0.5).float()
inter = (probs * mask).sum(dim=(1, 2, 3))
dice = 1 - (2 * inter + 1) / (probs.sum(dim=(1, 2, 3)) + mask.sum(dim=(1, 2, 3)) + 1)
print("dice loss per sample:", dice, "mean:", dice.mean())

# summary table
table = {
    "mse": F.mse_loss(pred, target_reg).item(),
    "l1": F.l1_loss(pred, target_reg).item(),
    "smooth_l1": F.smooth_l1_loss(pred, target_reg).item(),
    "ce": F.cross_entropy(logits, labels).item(),
    "bce": F.binary_cross_entropy_with_logits(z, yb).item(),
}
for k, v in table.items():
    print(f"{k:>10s}: {v:.6f}")
