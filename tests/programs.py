"""Realistic programs the player is checked on, beside the lesson example (conftest)."""

import autoviz


def mlp_training(iterations: int = 3):
    """nn.Sequential(Linear(3, 8), Tanh, Linear(8, 1)) trained with optim.SGD."""
    autoviz.manual_seed(0)
    net = autoviz.nn.Sequential(autoviz.nn.Linear(3, 8), autoviz.nn.Tanh(), autoviz.nn.Linear(8, 1))
    opt = autoviz.optim.SGD(net.parameters(), lr=0.1)
    x, y = autoviz.randn(4, 3), autoviz.randn(4, 1)
    with autoviz.trace() as tl:
        for _ in range(iterations):
            opt.zero_grad()
            loss = autoviz.nn.functional.mse_loss(net(x), y)
            loss.backward()
            opt.step()
    return tl


def rebinding_loop(n: int = 4):
    """A loop that rebinds one variable: h = tanh(h * w + x), n times."""
    x = autoviz.tensor(0.5, requires_grad=True)
    w = autoviz.tensor(1.5, requires_grad=True)
    with autoviz.trace() as tl:
        h = x
        for _ in range(n):
            h = (h * w + x).tanh()
        h.backward()
    return tl


def logistic_regression():
    """Two-class logistic regression on six points, with cross_entropy."""
    autoviz.manual_seed(0)
    points = autoviz.randn(6, 2)
    labels = autoviz.tensor([0, 1, 1, 0, 1, 0])
    weight = autoviz.zeros(2, 2, requires_grad=True)
    bias = autoviz.zeros(2, requires_grad=True)
    with autoviz.trace() as tl:
        logits = points @ weight + bias
        loss = autoviz.nn.functional.cross_entropy(logits, labels)
        loss.backward()
    return tl
