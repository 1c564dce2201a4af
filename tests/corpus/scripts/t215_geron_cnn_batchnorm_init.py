"""Hands-On ML (PyTorch edition) style: a CNN with BatchNorm2d, custom weight init, gradient clipping, train/eval modes."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)
N = 64
X = torch.rand(N, 3, 12, 12)
# class = which colour channel is brightest in the centre patch
X[torch.arange(N), torch.arange(N) % 3, 4:8, 4:8] += 1.0
y = torch.arange(N) % 3
perm = torch.randperm(N)
X, y = X[perm], y[perm]
print(X.shape, y[:10])
X_train, y_train, X_valid, y_valid = X[:48], y[:48], X[48:], y[48:]
mean = X_train.mean(dim=(0, 2, 3), keepdim=True)
std = X_train.std(dim=(0, 2, 3), keepdim=True)
print("channel means:", mean.flatten())
print("channel stds:", std.flatten())
X_train = (X_train - mean) / std
X_valid = (X_valid - mean) / std


class SmallCNN(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, kernel_size=3, padding="same", bias=False),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2),
            nn.Conv2d(8, 16, kernel_size=3, padding="same", bias=False),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(16, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


def init_weights(module):
    if isinstance(module, nn.Conv2d):
        nn.init.kaiming_normal_(module.weight, mode="fan_out", nonlinearity="relu")
    elif isinstance(module, nn.Linear):
        nn.init.xavier_uniform_(module.weight)
        nn.init.zeros_(module.bias)
    elif isinstance(module, nn.BatchNorm2d):
        nn.init.ones_(module.weight)
        nn.init.constant_(module.bias, 0.0)


torch.manual_seed(42)
model = SmallCNN()
model.apply(init_weights)
print(model)
for name, m in model.named_modules():
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        print(f"{name:15} {m.weight.shape!s:28} std={m.weight.std().item():.4f}")
bn = model.features[1]
print(bn, bn.momentum, bn.eps, bn.affine, bn.track_running_stats)
print("running_mean:", bn.running_mean)
print("running_var:", bn.running_var)
print("num_batches_tracked:", bn.num_batches_tracked)
print([n for n, _ in model.named_buffers()])
print(
    "params:",
    sum(p.numel() for p in model.parameters()),
    "buffers:",
    sum(b.numel() for b in model.buffers()),
)

# batch norm by hand vs nn.BatchNorm2d in training mode
torch.manual_seed(0)
feat = torch.randn(4, 8, 5, 5) * 3 + 1
bn_ref = nn.BatchNorm2d(8)
out_ref = bn_ref(feat)
mu = feat.mean(dim=(0, 2, 3), keepdim=True)
var = feat.var(dim=(0, 2, 3), unbiased=False, keepdim=True)
out_hand = (feat - mu) / torch.sqrt(var + bn_ref.eps)
print("hand BN matches:", torch.allclose(out_hand, out_ref, atol=1e-5))
print("updated running_mean:", bn_ref.running_mean[:3])
unbiased = feat.var(dim=(0, 2, 3), unbiased=True)
print("running_var uses unbiased var:", torch.allclose(bn_ref.running_var, 0.9 + 0.1 * unbiased))
bn_ref.eval()
out_eval = bn_ref(feat)
print(
    "eval uses running stats:",
    torch.allclose(
        out_eval,
        (feat - bn_ref.running_mean.view(1, -1, 1, 1))
        / torch.sqrt(bn_ref.running_var.view(1, -1, 1, 1) + 1e-5),
        atol=1e-5,
    ),
)
try:
    nn.BatchNorm1d(3).train()(torch.randn(1, 3))
except ValueError as e:
    print("ValueError:", e)

optimizer = torch.optim.SGD(
    model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-4
)
loss_fn = nn.CrossEntropyLoss()
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
batch_size = 16
for epoch in range(4):
    model.train()
    torch.manual_seed(epoch)
    idx = torch.randperm(len(X_train))
    total_loss, norms = 0.0, []
    for start in range(0, len(X_train), batch_size):
        b = idx[start : start + batch_size]
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(X_train[b]), y_train[b])
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        norms.append(norm.item())
        optimizer.step()
        total_loss += loss.item() * len(b)
    scheduler.step()
    model.eval()
    with torch.no_grad():
        logits = model(X_valid)
        acc = (logits.argmax(dim=1) == y_valid).float().mean()
        vloss = F.cross_entropy(logits, y_valid)
    print(
        f"Epoch {epoch + 1}/4, train loss: {total_loss / len(X_train):.4f}, valid loss: {vloss:.4f}, "
        f"valid acc: {acc:.2%}, lr: {scheduler.get_last_lr()[0]:.4f}, max grad norm {max(norms):.3f}"
    )

print("num_batches_tracked after training:", model.features[1].num_batches_tracked.item())
print("running_mean[:4]", model.features[1].running_mean[:4])
with torch.no_grad():
    probs = torch.softmax(model(X_valid[:4]), dim=-1)
print(probs.round(decimals=3))
print(probs.sum(dim=1))
print(model.features[0].weight.grad.norm())

# clip_grad_value_ and a manual norm check
p = nn.Parameter(torch.tensor([3.0, -4.0]))
p.grad = torch.tensor([3.0, -4.0])
total = nn.utils.clip_grad_norm_([p], max_norm=1.0)
print(total, p.grad, p.grad.norm())
p.grad = torch.tensor([0.3, -2.0])
nn.utils.clip_grad_value_([p], clip_value=0.5)
print(p.grad)
vec = nn.utils.parameters_to_vector(model.classifier.parameters())
print(vec.shape)
nn.utils.vector_to_parameters(torch.zeros_like(vec), model.classifier.parameters())
print(model.classifier[2].bias)


# freezing BN statistics when fine-tuning
def freeze_bn(m):
    if isinstance(m, nn.BatchNorm2d):
        m.eval()
        m.weight.requires_grad_(False)
        m.bias.requires_grad_(False)


model.train()
model.apply(freeze_bn)
print([m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)], model.training)
before = model.features[1].running_mean.clone()
model(X_train[:8])
print("stats frozen:", torch.equal(before, model.features[1].running_mean))
