"""pytorch-tutorial feedforward net style, plus the learning-rate schedulers and init tricks notebooks show."""

import torch
import torch.nn as nn
import torch.nn.functional as F

input_size = 64
hidden_size = 32
num_classes = 5
num_epochs = 4
batch_size = 20
learning_rate = 0.001

torch.manual_seed(7)
X = torch.randn(300, input_size)
true_w = torch.randn(input_size, num_classes)
y = (X @ true_w).argmax(1)
ds = torch.utils.data.TensorDataset(X, y)
train_ds, val_ds = torch.utils.data.random_split(ds, [240, 60])
train_loader = torch.utils.data.DataLoader(train_ds, batch_size=batch_size, shuffle=True)
val_loader = torch.utils.data.DataLoader(val_ds, batch_size=batch_size)


class NeuralNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super(NeuralNet, self).__init__()
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.drop = nn.Dropout(p=0.2)
        self.bn = nn.BatchNorm1d(hidden_size)
        self.fc2 = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        out = self.fc1(x)
        out = self.bn(out)
        out = self.relu(out)
        out = self.drop(out)
        out = self.fc2(out)
        return out


model = NeuralNet(input_size, hidden_size, num_classes)
print(model)


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        nn.init.zeros_(m.bias)


model.apply(init_weights)
print(model.fc1.weight.std().item() > 0, model.fc2.bias)
for name, module in model.named_modules():
    print(repr(name), type(module).__name__)
print([n for n, _ in model.named_buffers()])
print(model.bn.running_mean[:4], model.bn.num_batches_tracked)

criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
total_step = len(train_loader)
for epoch in range(num_epochs):
    model.train()
    for i, (images, labels) in enumerate(train_loader):
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 6 == 0:
            print(
                "Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}".format(
                    epoch + 1, num_epochs, i + 1, total_step, loss.item()
                )
            )
    scheduler.step()
    print(f"lr now {scheduler.get_last_lr()} {optimizer.param_groups[0]['lr']}")

model.eval()
with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in val_loader:
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
    print("Accuracy of the network on the val vectors: {} %".format(100 * correct / total))
print(model.bn.running_mean[:4], model.bn.running_var[:4], model.bn.num_batches_tracked)
print(model.training, model.bn.training)


# schedulers tour
def lrs(make_sched, n=8, opt_cls=torch.optim.SGD, **kw):
    p = nn.Parameter(torch.zeros(1))
    opt = opt_cls([p], lr=0.1, **kw)
    sched = make_sched(opt)
    out = []
    for _ in range(n):
        opt.step()
        sched.step()
        out.append(round(opt.param_groups[0]["lr"], 6))
    return out


print(lrs(lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[2, 5], gamma=0.1)))
print(lrs(lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9)))
print(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01)))
print(lrs(lambda o: torch.optim.lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 1 / (e + 1))))
print(lrs(lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=10), n=9))
print(lrs(lambda o: torch.optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4)))
print(lrs(lambda o: torch.optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2)))
print(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2)))
print(
    lrs(
        lambda o: torch.optim.lr_scheduler.SequentialLR(
            o,
            [
                torch.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
                torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.5),
            ],
            milestones=[3],
        )
    )
)
print(lrs(lambda o: torch.optim.lr_scheduler.PolynomialLR(o, total_iters=5, power=2.0)))

p = nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=0.1)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
for val_loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7]:
    plateau.step(val_loss)
    print(val_loss, opt.param_groups[0]["lr"])
print(type(plateau).__name__, plateau.best, plateau.num_bad_epochs)

# param groups with different lrs
opt = torch.optim.SGD(
    [{"params": model.fc1.parameters()}, {"params": model.fc2.parameters(), "lr": 1e-3}],
    lr=1e-2,
    momentum=0.9,
)
print(opt)
print([g["lr"] for g in opt.param_groups])
opt.add_param_group({"params": model.bn.parameters(), "lr": 0.5})
print(len(opt.param_groups), opt.param_groups[2]["momentum"])

# other optimizers, one step each
for cls, kw in [
    (torch.optim.RMSprop, {}),
    (torch.optim.Adagrad, {}),
    (torch.optim.AdamW, {"weight_decay": 0.1}),
    (torch.optim.Adadelta, {}),
    (torch.optim.Adamax, {}),
    (torch.optim.NAdam, {}),
    (torch.optim.RAdam, {}),
]:
    torch.manual_seed(0)
    lin = nn.Linear(3, 1)
    o = cls(lin.parameters(), lr=0.01, **kw)
    xb = torch.randn(8, 3)
    for _ in range(3):
        o.zero_grad()
        l = F.mse_loss(lin(xb), xb.sum(1, keepdim=True))
        l.backward()
        o.step()
    print(f"{cls.__name__:9s} loss {l.item():.6f} w {lin.weight.data.flatten().tolist()}")

nn.init.xavier_uniform_(model.fc2.weight)
nn.init.constant_(model.fc2.bias, 0.1)
nn.init.normal_(model.fc1.weight, mean=0.0, std=0.02)
nn.init.uniform_(model.fc1.bias, -0.1, 0.1)
nn.init.ones_(model.bn.weight)
print(
    model.fc2.bias,
    model.fc1.bias[:3],
    nn.init.calculate_gain("relu"),
    nn.init.calculate_gain("tanh"),
)
nn.init.orthogonal_(w := torch.empty(3, 3))
print(torch.allclose(w @ w.T, torch.eye(3), atol=1e-5))
nn.init.trunc_normal_(t := torch.empty(1000), std=1.0, a=-2.0, b=2.0)
print(t.min() >= -2, t.max() <= 2)
