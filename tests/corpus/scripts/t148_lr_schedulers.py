# The learning-rate schedulers side by side on a tiny model: the lr each epoch, the last lr,
# warm-up by chaining, ReduceLROnPlateau on a plateauing loss, and their state_dicts.
import torch
import torch.nn as nn
from torch.optim import SGD, Adam, lr_scheduler

torch.manual_seed(0)
model = nn.Linear(2, 1)


def lrs(make, epochs=6, opt_cls=SGD, **opt_kw):
    opt = opt_cls(model.parameters(), lr=0.1, **opt_kw)
    sched = make(opt)
    out = []
    for _ in range(epochs):
        opt.step()
        out.append(round(sched.get_last_lr()[0], 6))
        sched.step()
    return out


print("StepLR", lrs(lambda o: lr_scheduler.StepLR(o, step_size=2, gamma=0.5)))
print("MultiStepLR", lrs(lambda o: lr_scheduler.MultiStepLR(o, milestones=[1, 4], gamma=0.1)))
print("ExponentialLR", lrs(lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9)))
print("CosineAnnealingLR", lrs(lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.01)))
print("LambdaLR", lrs(lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda epoch: 0.95**epoch)))
print("MultiplicativeLR", lrs(lambda o: lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.8)))
print("LinearLR", lrs(lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4)))
print("ConstantLR", lrs(lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3)))
print("PolynomialLR", lrs(lambda o: lr_scheduler.PolynomialLR(o, total_iters=5, power=2.0)))
print(
    "OneCycleLR", lrs(lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=6), momentum=0.9)
)
print(
    "CyclicLR",
    lrs(lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2), momentum=0.9),
)
print(
    "CosineAnnealingWarmRestarts",
    lrs(lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3), epochs=7),
)
print(
    "SequentialLR",
    lrs(
        lambda o: lr_scheduler.SequentialLR(
            o,
            schedulers=[
                lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=2),
                lr_scheduler.ExponentialLR(o, gamma=0.9),
            ],
            milestones=[2],
        ),
        epochs=5,
    ),
)
print(
    "ChainedScheduler",
    lrs(
        lambda o: lr_scheduler.ChainedScheduler(
            [
                lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
                lr_scheduler.ExponentialLR(o, gamma=0.9),
            ]
        )
    ),
)

optimizer = SGD(model.parameters(), lr=0.1)
scheduler = lr_scheduler.ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=1)
for epoch, val_loss in enumerate([1.0, 0.9, 0.9, 0.9, 0.9, 0.8, 0.85, 0.86, 0.87]):
    scheduler.step(val_loss)
    print(epoch, optimizer.param_groups[0]["lr"], scheduler.num_bad_epochs)

# a real loop: train y = 3x + 1 with Adam and StepLR, printing the lr as tutorials do
X = torch.linspace(-1, 1, 20).unsqueeze(1)
Y = 3 * X + 1
net = nn.Linear(1, 1)
opt = Adam(net.parameters(), lr=0.1)
sched = lr_scheduler.StepLR(opt, step_size=10, gamma=0.1)
for epoch in range(30):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(X), Y)
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1} loss {loss.item():.5f} lr {sched.get_last_lr()}")
print(sched.state_dict())
print(opt.state_dict()["param_groups"])
print(net.weight, net.bias)
