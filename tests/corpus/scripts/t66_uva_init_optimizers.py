"""The UvA course's tutorial on initialisation and optimisation: weight statistics of
constant, normal, Xavier and Kaiming initialisations through a deep network, and SGD,
SGD with momentum and Adam written as optimizer classes, compared on a curved function."""

import math

import torch
import torch.nn as nn


def make_net(act):
    layers = []
    sizes = [32, 64, 64, 64, 10]
    for i in range(len(sizes) - 1):
        layers += [nn.Linear(sizes[i], sizes[i + 1]), act()]
    return nn.Sequential(*layers[:-1])


def const_init(model, fill=0.0):
    for name, param in model.named_parameters():
        param.data.fill_(fill)


def equal_var_init(model):
    for name, param in model.named_parameters():
        if name.endswith(".bias"):
            param.data.fill_(0)
        else:
            param.data.normal_(std=1.0 / math.sqrt(param.shape[1]))


def xavier_init(model):
    for name, param in model.named_parameters():
        if name.endswith(".bias"):
            param.data.fill_(0)
        else:
            bound = math.sqrt(6) / math.sqrt(param.shape[0] + param.shape[1])
            param.data.uniform_(-bound, bound)


def kaiming_init(model):
    for name, param in model.named_parameters():
        if name.endswith(".bias"):
            param.data.fill_(0.0)
        elif name.startswith("0."):
            param.data.normal_(0, 1 / math.sqrt(param.shape[1]))
        else:
            param.data.normal_(0, math.sqrt(2) / math.sqrt(param.shape[1]))


torch.manual_seed(42)
x = torch.randn(256, 32)
for init, act in (
    (const_init, nn.Tanh),
    (equal_var_init, nn.Identity),
    (xavier_init, nn.Tanh),
    (kaiming_init, nn.ReLU),
):
    net = make_net(act)
    init(net)
    h, stats = x, []
    for layer in net:
        h = layer(h)
        if isinstance(layer, nn.Linear):
            stats.append(f"{h.var().item():.3f}")
    print(init.__name__, act.__name__, stats)


class OptimizerTemplate:
    def __init__(self, params, lr):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()

    @torch.no_grad()
    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            self.update_param(p)


class SGD(OptimizerTemplate):
    def update_param(self, p):
        p.add_(-self.lr * p.grad)


class SGDMomentum(OptimizerTemplate):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params, lr)
        self.momentum = momentum
        self.param_momentum = {p: torch.zeros_like(p.data) for p in self.params}

    def update_param(self, p):
        self.param_momentum[p] = (1 - self.momentum) * p.grad + self.momentum * self.param_momentum[
            p
        ]
        p.add_(-self.lr * self.param_momentum[p])


class Adam(OptimizerTemplate):
    def __init__(self, params, lr, beta1=0.9, beta2=0.999, eps=1e-8):
        super().__init__(params, lr)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.param_step = {p: 0 for p in self.params}
        self.param_momentum = {p: torch.zeros_like(p.data) for p in self.params}
        self.param_2nd_momentum = {p: torch.zeros_like(p.data) for p in self.params}

    def update_param(self, p):
        self.param_step[p] += 1
        self.param_momentum[p] = (1 - self.beta1) * p.grad + self.beta1 * self.param_momentum[p]
        self.param_2nd_momentum[p] = (1 - self.beta2) * (
            p.grad
        ) ** 2 + self.beta2 * self.param_2nd_momentum[p]
        bias_correction_1 = 1 - self.beta1 ** self.param_step[p]
        bias_correction_2 = 1 - self.beta2 ** self.param_step[p]
        p_2nd_mom = self.param_2nd_momentum[p] / bias_correction_2
        p_mom = self.param_momentum[p] / bias_correction_1
        p_lr = self.lr / (torch.sqrt(p_2nd_mom) + self.eps)
        p.add_(-p_lr * p_mom)


def pathological_curve_loss(w1, w2):
    x1_loss = torch.tanh(w1) ** 2 + 0.01 * torch.abs(w1)
    x2_loss = torch.sigmoid(w2)
    return x1_loss + x2_loss


for optimizer_func in (
    lambda p: SGD(p, lr=1),
    lambda p: SGDMomentum(p, lr=1, momentum=0.9),
    lambda p: Adam(p, lr=1),
):
    weights = nn.Parameter(torch.FloatTensor([5.0, 2.0]), requires_grad=True)
    optimizer = optimizer_func([weights])
    for _ in range(50):
        optimizer.zero_grad()
        loss = pathological_curve_loss(weights[0], weights[1])
        loss.backward()
        optimizer.step()
    print(type(optimizer).__name__, weights.data, f"{loss.item():.4f}")
w = nn.Parameter(torch.FloatTensor([5.0, 2.0]))
opt = torch.optim.Adam([w], lr=1)
for _ in range(50):
    opt.zero_grad()
    pathological_curve_loss(w[0], w[1]).backward()
    opt.step()
print("torch.optim.Adam", w.data)
