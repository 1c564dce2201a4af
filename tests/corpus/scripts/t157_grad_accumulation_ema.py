# Gradient accumulation over micro-batches, clip_grad_norm_ (and its total norm), parameters as
# one vector, an exponential moving average of the weights kept by hand, and gradient noise.
import copy

import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 8), nn.GELU(), nn.Linear(8, 1))
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
optimizer = torch.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.01)
X = torch.randn(32, 3)
Y = (X[:, :1] * 2 - X[:, 1:2]).tanh()
accum_steps, decay = 4, 0.9


@torch.no_grad()
def update_ema(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p, alpha=1 - decay)


for epoch in range(3):
    optimizer.zero_grad()
    for i, (xb, yb) in enumerate(zip(X.split(8), Y.split(8))):
        loss = nn.functional.mse_loss(model(xb), yb) / accum_steps
        loss.backward()
        if (i + 1) % accum_steps == 0:
            total_norm = clip_grad_norm_(model.parameters(), max_norm=0.5)
            optimizer.step()
            optimizer.zero_grad()
            update_ema(ema, model, decay)
    with torch.no_grad():
        full = nn.functional.mse_loss(model(X), Y).item()
        ema_loss = nn.functional.mse_loss(ema(X), Y).item()
    print(
        f"epoch {epoch}: loss {full:.5f} ema {ema_loss:.5f} grad norm before clip {total_norm:.5f}"
    )

# one big batch gives the same gradient as the accumulated micro-batches
model.zero_grad()
nn.functional.mse_loss(model(X), Y).backward()
big = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
for xb, yb in zip(X.split(8), Y.split(8)):
    (nn.functional.mse_loss(model(xb), yb) / 4).backward()
print(all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(big, model.parameters())))

vec = parameters_to_vector(model.parameters())
print(vec.shape, vec[:4])
vector_to_parameters(torch.zeros_like(vec), ema.parameters())
print(ema[0].bias, sum(p.abs().sum() for p in ema.parameters()))
grads = [p.grad.norm() for p in model.parameters()]
print(torch.stack(grads), torch.norm(torch.stack(grads)))
print(clip_grad_norm_(model.parameters(), 1e-3), model[0].bias.grad)
nn.utils.clip_grad_value_(model.parameters(), clip_value=1e-5)
print(model[2].weight.grad)
for p in model.parameters():
    p.grad += torch.randn_like(p.grad) * 1e-3
print(model[2].bias.grad)
print(
    optimizer.state_dict()["state"][0]["exp_avg"].shape, optimizer.state_dict()["state"][0]["step"]
)
