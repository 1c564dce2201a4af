"""A tour of the loss functions, as a course's losses lecture goes through them: regression
(MSE, L1, SmoothL1, Huber), classification (cross-entropy with weights and label smoothing,
NLL, BCE, BCEWithLogits with pos_weight), ranking and embedding losses, KL divergence,
Poisson and Gaussian NLL; each with the gradient it sends back."""

import torch
from torch import nn

torch.manual_seed(7)
pred = torch.randn(4, 3, requires_grad=True)
target = torch.randn(4, 3)
for loss in (
    nn.MSELoss(),
    nn.L1Loss(),
    nn.SmoothL1Loss(beta=0.5),
    nn.HuberLoss(delta=0.5),
    nn.MSELoss(reduction="sum"),
):
    value = loss(pred, target)
    (g,) = torch.autograd.grad(value, pred)
    print(f"{loss!r:28} {value.item():.4f} grad[0] {g[0]}")
logits = torch.randn(5, 4, requires_grad=True)
labels = torch.tensor([0, 3, 1, 1, 2])
print(
    nn.CrossEntropyLoss()(logits, labels),
    nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5, 1.0]))(logits, labels),
)
print(
    nn.CrossEntropyLoss(label_smoothing=0.1)(logits, labels),
    nn.NLLLoss()(torch.log_softmax(logits, 1), labels),
)
probs = torch.sigmoid(torch.randn(6))
ys = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 0.0])
print(
    nn.BCELoss()(probs, ys),
    nn.BCEWithLogitsLoss(pos_weight=torch.tensor(2.0))(
        torch.logit(probs) if hasattr(torch, "logit") else probs.log() - (1 - probs).log(), ys
    ),
)
a, b = torch.randn(3), torch.randn(3)
print(nn.MarginRankingLoss(margin=0.5)(a, b, torch.tensor([1.0, -1.0, 1.0])))
anchor, pos, neg = torch.randn(2, 4), torch.randn(2, 4), torch.randn(2, 4)
print(
    nn.TripletMarginLoss(margin=1.0)(anchor, pos, neg),
    nn.CosineEmbeddingLoss()(anchor, pos, torch.tensor([1.0, -1.0])),
)
print(
    nn.HingeEmbeddingLoss()(torch.randn(4), torch.tensor([1.0, -1.0, 1.0, -1.0])),
    nn.SoftMarginLoss()(a, torch.sign(b)),
)
print(
    nn.MultiLabelSoftMarginLoss()(logits, (torch.rand(5, 4) > 0.5).float()),
    nn.MultiMarginLoss()(logits, labels),
)
log_q = torch.log_softmax(torch.randn(2, 5), dim=1)
p = torch.softmax(torch.randn(2, 5), dim=1)
print(
    nn.KLDivLoss(reduction="batchmean")(log_q, p),
    nn.KLDivLoss(reduction="batchmean", log_target=True)(log_q, p.log()),
)
counts = torch.tensor([0.0, 2.0, 5.0, 1.0])
print(
    nn.PoissonNLLLoss()(torch.randn(4), counts),
    nn.GaussianNLLLoss()(torch.randn(4), torch.randn(4), torch.rand(4) + 0.1),
)
