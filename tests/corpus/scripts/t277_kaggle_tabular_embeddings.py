"""Kaggle-notebook style tabular model: categorical embeddings, standardisation by hand, class weights, Huber regression, and metrics computed with tensor ops."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)
N = 300
# categorical columns: city (5 levels), weekday (7), plan (3); numeric: age, income, tenure
city = torch.randint(0, 5, (N,))
weekday = torch.randint(0, 7, (N,))
plan = torch.multinomial(torch.tensor([0.6, 0.3, 0.1]), N, replacement=True)
age = torch.normal(40.0, 12.0, (N,)).clamp(18, 80)
income = torch.exp(torch.randn(N) * 0.5 + 10.5)
tenure = torch.rand(N) * 10
cats = torch.stack([city, weekday, plan], dim=1)
nums = torch.stack([age, income, tenure], dim=1)
print("cats:", cats.shape, cats.dtype, "nums:", nums.shape, nums.dtype)
print("plan counts:", torch.bincount(plan))
print("income quantiles:", torch.quantile(income, torch.tensor([0.25, 0.5, 0.75])))
print(
    "age describe: mean %.3f std %.3f min %.3f max %.3f"
    % (age.mean(), age.std(), age.min(), age.max())
)
print("median:", age.median(), "mode plan:", plan.mode())

# target: churn (imbalanced) and spend (regression with outliers)
score = (
    0.8 * (plan == 2).float() - 0.05 * tenure + 0.3 * (city == 3).float() + 0.02 * (age - 40) / 12
)
churn = (score + 0.3 * torch.randn(N) > 0.35).long()
spend = 50 + 30 * plan.float() + 0.001 * income + 2 * tenure + torch.randn(N) * 5
spend[::37] += 200  # outliers
print("churn rate:", churn.float().mean().item(), torch.bincount(churn))

# standardisation by hand (fit on train only) and log-transform
train_idx, test_idx = torch.arange(0, 240), torch.arange(240, N)
nums_t = nums.clone()
nums_t[:, 1] = torch.log1p(nums_t[:, 1])
mean = nums_t[train_idx].mean(0)
std = nums_t[train_idx].std(0, unbiased=False)
print("mean:", mean, "std:", std)
nums_s = (nums_t - mean) / std
print(
    "train z mean:", nums_s[train_idx].mean(0), "z std:", nums_s[train_idx].std(0, unbiased=False)
)
mn, mx = nums_t[train_idx].min(0).values, nums_t[train_idx].max(0).values
print("minmax first rows:", ((nums_t - mn) / (mx - mn))[:2])

emb_sizes = [(5, 3), (7, 4), (3, 2)]
print("embedding sizes rule:", [(n, min(50, (n + 1) // 2)) for n, _ in emb_sizes])


class TabularModel(nn.Module):
    def __init__(self, emb_sizes, n_cont, out_sz, layers, p=0.2):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(ni, nf) for ni, nf in emb_sizes])
        self.emb_drop = nn.Dropout(p)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        n_emb = sum(nf for _, nf in emb_sizes)
        layerlist = []
        n_in = n_emb + n_cont
        for i in layers:
            layerlist += [
                nn.Linear(n_in, i),
                nn.ReLU(inplace=True),
                nn.BatchNorm1d(i),
                nn.Dropout(p),
            ]
            n_in = i
        layerlist.append(nn.Linear(layers[-1], out_sz))
        self.layers = nn.Sequential(*layerlist)

    def forward(self, x_cat, x_cont):
        embeddings = [e(x_cat[:, i]) for i, e in enumerate(self.embeds)]
        x = torch.cat(embeddings, 1)
        x = self.emb_drop(x)
        x_cont = self.bn_cont(x_cont)
        x = torch.cat([x, x_cont], 1)
        return self.layers(x)


model = TabularModel(emb_sizes, 3, 2, [16, 8], p=0.1)
print(model)
print("embedding out:", model.embeds[0](cats[:4, 0]))

# class weights inversely proportional to frequency
counts = torch.bincount(churn[train_idx], minlength=2).float()
weights = counts.sum() / (2 * counts)
print("class weights:", weights)
criterion = nn.CrossEntropyLoss(weight=weights)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(60):
    model.train()
    logits = model(cats[train_idx], nums_s[train_idx])
    loss = criterion(logits, churn[train_idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1:3d}  loss: {loss.item():10.8f}")

model.eval()
with torch.no_grad():
    logits = model(cats[test_idx], nums_s[test_idx])
    probs = logits.softmax(1)[:, 1]
    pred = logits.argmax(1)
truth = churn[test_idx]
print(
    "unweighted CE:",
    F.cross_entropy(logits, truth).item(),
    "weighted:",
    criterion(logits, truth).item(),
)

# metrics via tensor ops
cm = torch.bincount(truth * 2 + pred, minlength=4).reshape(2, 2)
print("confusion matrix:\n", cm)
tn, fp, fn, tp = cm.flatten().tolist()
precision = tp / max(tp + fp, 1)
recall = tp / max(tp + fn, 1)
f1 = 2 * precision * recall / max(precision + recall, 1e-12)
print(
    f"accuracy {(pred == truth).float().mean():.4f} precision {precision:.4f} recall {recall:.4f} f1 {f1:.4f}"
)
# multiclass confusion matrix and macro F1 on city prediction by a trivial rule
k = 5
pred_city = (city + (torch.rand(N) > 0.7).long()) % k
cm5 = torch.bincount(city * k + pred_city, minlength=k * k).reshape(k, k)
print("5-class confusion:\n", cm5)
tp5 = cm5.diag().float()
prec5 = tp5 / cm5.sum(0).clamp(min=1)
rec5 = tp5 / cm5.sum(1).clamp(min=1)
f15 = torch.where(prec5 + rec5 > 0, 2 * prec5 * rec5 / (prec5 + rec5), torch.zeros(k))
print("per-class precision:", prec5, "\nrecall:", rec5, "\nf1:", f15, "\nmacro f1:", f15.mean())
print("micro acc:", tp5.sum() / cm5.sum())

# ROC AUC by the rank formula
order = probs.argsort()
ranks = torch.empty_like(order)
ranks[order] = torch.arange(1, len(probs) + 1)
n_pos, n_neg = (truth == 1).sum(), (truth == 0).sum()
auc = (ranks[truth == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
print("AUC:", auc)

# Huber / SmoothL1 regression for spend
reg = nn.Sequential(nn.Linear(3 + 3, 16), nn.ReLU(), nn.Linear(16, 1))
Xr = torch.cat([nums_s, F.one_hot(plan, 3).float()], dim=1)
y_mean, y_std = spend[train_idx].mean(), spend[train_idx].std()
ys = ((spend - y_mean) / y_std).unsqueeze(1)
for loss_name, lf in [
    ("mse", nn.MSELoss()),
    ("huber", nn.HuberLoss(delta=1.0)),
    ("smoothl1", nn.SmoothL1Loss(beta=0.5)),
    ("l1", nn.L1Loss()),
]:
    torch.manual_seed(0)
    for layer in reg:
        if hasattr(layer, "reset_parameters"):
            layer.reset_parameters()
    o = torch.optim.Adam(reg.parameters(), lr=0.02)
    for _ in range(80):
        l = lf(reg(Xr[train_idx]), ys[train_idx])
        o.zero_grad()
        l.backward()
        o.step()
    with torch.no_grad():
        p = reg(Xr[test_idx]) * y_std + y_mean
        mae = (p.squeeze(1) - spend[test_idx]).abs().mean()
        rmse = ((p.squeeze(1) - spend[test_idx]) ** 2).mean().sqrt()
        r2 = (
            1
            - ((p.squeeze(1) - spend[test_idx]) ** 2).sum()
            / ((spend[test_idx] - spend[test_idx].mean()) ** 2).sum()
        )
    print(f"{loss_name:8s} train loss {l.item():.5f} MAE {mae:.4f} RMSE {rmse:.4f} R2 {r2:.4f}")
a, b = torch.tensor([0.0, 0.5, 3.0]), torch.tensor([0.2, 2.0, -1.0])
print("huber none:", F.huber_loss(a, b, reduction="none", delta=1.0))
print("smooth_l1 none:", F.smooth_l1_loss(a, b, reduction="none", beta=1.0))
print(
    "huber delta=2 vs smooth_l1 beta=2:",
    F.huber_loss(a, b, delta=2.0),
    F.smooth_l1_loss(a, b, beta=2.0),
)
