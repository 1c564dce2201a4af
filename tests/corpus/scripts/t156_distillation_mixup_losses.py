# Knowledge distillation with a temperature (KLDivLoss on log-probabilities, log_target), mixup
# with a Beta draw, class-weighted and label-smoothed cross-entropy, and focal loss by hand.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Beta

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
student = nn.Sequential(nn.Linear(6, 4), nn.ReLU(), nn.Linear(4, 3))
x = torch.randn(20, 6)
y = torch.randint(0, 3, (20,))
T, alpha = 4.0, 0.7
optimizer = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
kl = nn.KLDivLoss(reduction="batchmean")
for step in range(5):
    with torch.no_grad():
        teacher_logits = teacher(x)
    student_logits = student(x)
    soft_loss = (
        kl(F.log_softmax(student_logits / T, dim=1), F.softmax(teacher_logits / T, dim=1)) * T * T
    )
    hard_loss = F.cross_entropy(student_logits, y)
    loss = alpha * soft_loss + (1 - alpha) * hard_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(
        f"step {step} soft {soft_loss.item():.5f} hard {hard_loss.item():.5f} "
        f"total {loss.item():.5f}"
    )
log_p = F.log_softmax(student(x) / T, dim=1)
log_q = F.log_softmax(teacher(x) / T, dim=1)
print(
    F.kl_div(log_p, log_q, reduction="batchmean", log_target=True),
    F.kl_div(log_p, log_q.exp(), reduction="sum"),
)

# mixup
lam_dist = Beta(torch.tensor([0.4]), torch.tensor([0.4]))
lam = lam_dist.sample().item()
index = torch.randperm(x.size(0))
mixed_x = lam * x + (1 - lam) * x[index, :]
y_a, y_b = y, y[index]
pred = student(mixed_x)
mix_loss = lam * F.cross_entropy(pred, y_a) + (1 - lam) * F.cross_entropy(pred, y_b)
print(round(lam, 6), index[:6], mix_loss)
onehot = F.one_hot(y, num_classes=3).float()
soft_targets = lam * onehot + (1 - lam) * onehot[index]
print(F.cross_entropy(pred, soft_targets), soft_targets[:2])

# class weights and label smoothing
counts = torch.bincount(y, minlength=3).float()
weights = counts.sum() / (3 * counts)
print(counts, weights)
print(F.cross_entropy(pred, y, weight=weights), F.cross_entropy(pred, y, label_smoothing=0.2))


def focal_loss(logits, targets, gamma=2.0, alpha=None):
    log_probs = F.log_softmax(logits, dim=-1)
    log_pt = log_probs.gather(1, targets.unsqueeze(1)).squeeze(1)
    pt = log_pt.exp()
    loss = -((1 - pt) ** gamma) * log_pt
    if alpha is not None:
        loss = alpha[targets] * loss
    return loss.mean()


logits = student(x).detach().requires_grad_()
fl = focal_loss(logits, y, alpha=weights)
fl.backward()
print(fl, logits.grad[:2])
print(focal_loss(logits, y, gamma=0.0), F.cross_entropy(logits, y))
print(F.multi_margin_loss(logits, y), F.multilabel_soft_margin_loss(logits, onehot))
print(nn.MultiLabelMarginLoss()(logits[:2], torch.tensor([[0, 2, -1], [1, -1, 0]])))
print(
    F.poisson_nll_loss(logits[:, 0].exp(), y.float(), log_input=False),
    F.gaussian_nll_loss(logits[:, 0], y.float(), torch.ones(20)),
)
