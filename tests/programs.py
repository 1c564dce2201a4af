"""Realistic programs the player is checked on, beside the lesson example (conftest)."""

import random

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


def residual_net(blocks: int = 3):
    """Linear(3, 4), `blocks` residual blocks x + tanh(Linear(4, 4)(x)), Linear(4, 1): one SGD
    step on an MSE loss."""
    nn = autoviz.nn

    class Block(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.lin = nn.Linear(d, d)
            self.act = nn.Tanh()

        def forward(self, x):
            return x + self.act(self.lin(x))

    autoviz.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), *[Block(4) for _ in range(blocks)], nn.Linear(4, 1))
    opt = autoviz.optim.SGD(net.parameters(), lr=0.1)
    x, y = autoviz.randn(5, 3), autoviz.randn(5, 1)
    with autoviz.trace() as tl:
        opt.zero_grad()
        loss = nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
    return tl


def activation_pair(iterations: int = 2):
    """The MLP of mlp_training with Tanh, then with ReLU: two timelines to compare."""
    pair = []
    for act in (autoviz.nn.Tanh, autoviz.nn.ReLU):
        autoviz.manual_seed(0)
        net = autoviz.nn.Sequential(autoviz.nn.Linear(3, 8), act(), autoviz.nn.Linear(8, 1))
        opt = autoviz.optim.SGD(net.parameters(), lr=0.1)
        x, y = autoviz.randn(4, 3), autoviz.randn(4, 1)
        with autoviz.trace() as tl:
            for _ in range(iterations):
                opt.zero_grad()
                loss = autoviz.nn.functional.mse_loss(net(x), y)
                loss.backward()
                opt.step()
        pair.append(tl)
    return pair


def char_model(iterations: int = 2):
    """makemore's character MLP on a few names: an Embedding(27, 10) of 3 characters' context,
    Linear(30, 64), tanh, Linear(64, 27) and cross_entropy on the next character, trained with
    optim.SGD: tensors of hundreds of elements, integer indices, a loss over 27 classes."""
    nn = autoviz.nn
    words = ["emma", "olivia", "ava", "isabella", "sophia"]
    stoi = {c: i + 1 for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")}
    xs, ys = [], []
    for w in words:
        context = [0, 0, 0]
        for ch in w + ".":
            ix = stoi.get(ch, 0)
            xs.append(context)
            ys.append(ix)
            context = [*context[1:], ix]
    autoviz.manual_seed(42)
    emb = nn.Embedding(27, 10)
    net = nn.Sequential(nn.Linear(30, 64), nn.Tanh(), nn.Linear(64, 27))
    opt = autoviz.optim.SGD([*emb.parameters(), *net.parameters()], lr=0.1)
    X, Y = autoviz.tensor(xs), autoviz.tensor(ys)
    with autoviz.trace() as tl:
        for _ in range(iterations):
            opt.zero_grad()
            logits = net(emb(X).view(-1, 30))
            loss = nn.functional.cross_entropy(logits, Y)
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


def tree(n_nodes: int):
    """x_i * w_i for t terms summed pairwise, then backward: 6t - 2 nodes, a shallow layout."""
    terms = max(2, round((n_nodes + 2) / 6))
    xs = [autoviz.tensor(0.1 * (i % 7 + 1), requires_grad=True) for i in range(terms)]
    ws = [autoviz.tensor(0.5 - 0.1 * (i % 5), requires_grad=True) for i in range(terms)]
    with autoviz.trace() as tl:
        level = [x * w for x, w in zip(xs, ws, strict=True)]
        while len(level) > 1:
            pairs = range(0, len(level) - 1, 2)
            level = [level[i] + level[i + 1] for i in pairs] + level[len(level) // 2 * 2 :]
        level[0].backward()
    len(tl)  # build the timeline outside the timings
    return tl


# -- big graphs: one graph of about `nodes` nodes, in each of these shapes -------------------------
BIG_SHAPES = ("chain", "fan_in", "residual", "loop")
_ACTIVATIONS = ("tanh", "sigmoid", "relu", "sin", "cos", "exp")


_IRREGULAR = random.Random(0)
_ORDER = [_IRREGULAR.randrange(720) for _ in range(100_000)]


def _pick(i: int, choices: tuple):
    """A fixed choice in no order that repeats (nothing a fold could find)."""
    return choices[_ORDER[i % len(_ORDER)] % len(choices)]


def big_graph(shape: str, nodes: int, lib=autoviz, tracer=None):
    """Trace a program whose one graph has about `nodes` nodes, of `shape` (BIG_SHAPES):
    chain, an irregular chain of elementwise ops; fan_in, one op (stack) taking every input;
    residual, irregular blocks h = h + act(h * w_i); loop, issue 30's deep program (the same
    ops each iteration: h @ W[i % 8], tanh, a mean taken off). `lib` is autoviz or torch."""
    tracer = tracer or (autoviz.trace if lib is autoviz else autoviz.trace_torch)
    act = lambda t, i: getattr(lib, _pick(i, _ACTIVATIONS))(t * 0.5)  # noqa: E731
    with tracer() as tl:
        if shape == "chain":
            h = lib.tensor(0.5, requires_grad=True)
            for i in range(nodes // 5):  # * 0.5: op, tensor, constant; act: op, tensor
                h = act(h, i)
            h.backward()
        elif shape == "fan_in":
            xs = [lib.tensor(float(i % 7), requires_grad=True) for i in range(nodes // 4)]
            total = lib.stack([x * 2.0 for x in xs]).sum()
            total.backward()
        elif shape == "residual":
            h = lib.ones(4, requires_grad=True)
            for i in range(nodes // 7):
                h = h + act(h, i)
            h.sum().backward()
        elif shape == "loop":
            gen = lib.Generator().manual_seed(0)
            weights = [lib.randn(16, 16, generator=gen, requires_grad=True) for _ in range(8)]
            h, total = lib.randn(32, 16, generator=gen), 0
            for i in range(nodes // 17):
                h = h @ weights[i % 8]
                b = h.tanh() * 0.5 + h
                h = b - b.mean(0, keepdim=True)
                total = total + h.sum()
            (total / (nodes // 17)).backward()
        else:
            raise ValueError(f"unknown shape {shape!r} (one of {BIG_SHAPES})")
    return tl
