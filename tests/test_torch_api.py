"""The PyTorch API lessons use (issue 19): each snippet prints the same under real torch and
under autoviz (run inside `autoviz.as_torch()`), errors and their messages included."""

import contextlib
import io
import re
import textwrap
import warnings

import pytest

import autoviz

SNIPPETS = {}


def snippet(name: str, source: str, *shown: str) -> None:
    """A snippet: `source`, then for each expression in `shown` its value or its error."""
    SNIPPETS[name] = textwrap.dedent(source).strip() + "\n" + "".join(map(show, shown))


def show(code: str) -> str:
    """Source lines that print `code`'s value, or its error as `Type: message`."""
    return (
        f"try:\n    print({code})\nexcept Exception as error:\n"
        '    print(type(error).__name__ + ":", str(error).splitlines()[0])\n'
    )


# -- devices ---------------------------------------------------------------------------------------
snippet(
    "devices",
    """
    import torch
    d = torch.device("cpu")
    print(d, repr(d), d.type, d.index, repr(torch.device("cpu", 0)), repr(torch.device("cuda:1")))
    print(d == torch.device("cpu"), d == torch.device("cpu:0"))
    print(hash(d) == hash(torch.device("cpu")))
    x = torch.ones(2, device="cpu")
    print(x.device, x.is_cuda, x.to("cpu") is x, x.to(d) is x, x.cpu() is x)
    print(torch.zeros(2, device=d), torch.tensor([1.0], device="cpu"), torch.arange(3, device=d))
    print(torch.cuda.is_available(), torch.cuda.device_count(), torch.get_default_device())
    torch.set_default_device("cpu")
    print(torch.backends.mps.is_available(), torch.accelerator.is_available())
    print(x.to("cpu", torch.float64), x.to(device="cpu", dtype=torch.int64))
    print(x.to(torch.zeros(1, dtype=torch.int32)))
    """,
    'torch.zeros(2, device="cuda")',
    "x.cuda()",
    'x.to("cuda")',
    'torch.device("gpu")',
    'torch.device("cpu:x")',
    "torch.nn.Linear(2, 2).cuda()",
)

# -- constructors and dtypes -----------------------------------------------------------------------
snippet(
    "constructors",
    """
    import torch
    print(torch.Tensor([1, 2]), torch.Tensor([[1.5], [2]]), torch.Tensor(), torch.Tensor((2, 3)))
    print(torch.Tensor(2, 3).shape, torch.FloatTensor([1, 2]), torch.LongTensor([1.7, -2.2]))
    print(torch.DoubleTensor([1]), torch.IntTensor([3]), torch.BoolTensor([1, 0]))
    print(torch.LongTensor(3).shape)
    print(torch.FloatTensor, isinstance(torch.ones(1), torch.FloatTensor))
    print(isinstance(torch.ones(1), torch.LongTensor))
    print(torch.Tensor(torch.tensor([1, 2])), torch.ones(2).type(), torch.ones(2).long().type())
    print(torch.ones(2).type(torch.LongTensor), torch.ones(2).type("torch.DoubleTensor"))
    print(torch.ones(2).type(torch.int32))
    print(torch.empty(2, 3).shape, torch.empty((4,), dtype=torch.long).dtype, torch.empty(0))
    print(torch.float, torch.long, torch.double, torch.half, torch.int, torch.short, torch.int8)
    print(torch.uint8)
    print(torch.float is torch.float32, torch.long is torch.int64, torch.float64.is_floating_point)
    print(torch.int64.is_signed)
    print(torch.zeros_like(torch.ones(2), dtype=torch.long))
    print(torch.ones_like(torch.ones(2, 1), dtype=torch.float64))
    print(torch.full_like(torch.zeros(2), 7))
    print(torch.full_like(torch.zeros(2, dtype=torch.long), 7.5))
    print(torch.empty_like(torch.ones(3)).shape)
    print(torch.full((2,), 3), torch.full((2,), 3.0), torch.full((1,), True))
    print(torch.zeros(size=(2, 1)), torch.ones([2]))
    print(torch.arange(5), torch.arange(1, 3, 0.5), torch.linspace(0, 1, 5))
    print(torch.linspace(0, 10, 5, dtype=torch.long))
    print(torch.logspace(0, 2, 3), torch.eye(2, 3), torch.tensor(3).dtype)
    print(torch.as_tensor([1, 2], dtype=torch.float))
    print(torch.numel(torch.ones(2, 3)), torch.is_tensor(3), torch.is_tensor(torch.ones(1)))
    print(torch.is_floating_point(torch.ones(1)))
    """,
    "torch.FloatTensor(torch.tensor([1, 2]))",
    "torch.Tensor(2.5)",
    "torch.zeros(-1)",
    "torch.arange(0, 5, 0)",
    'torch.ones(2).type("torch.FooTensor")',
)

# -- numpy-style keywords and out= -----------------------------------------------------------------
snippet(
    "keywords",
    """
    import torch
    x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
    print(x.sum(axis=0), x.sum(axis=1, keepdims=True), torch.sum(input=x), torch.mean(x, axis=0))
    print(x.max(axis=1), x.argmax(axis=0), x.min(axis=1, keepdims=True).values, x.std(axis=1))
    print(torch.cat([x, x], axis=1).shape, torch.stack([x, x], axis=2).shape, x.all(axis=1))
    print(x.cumsum(axis=1))
    print(torch.zeros(size=(2, 3)).shape, torch.exp(input=torch.zeros(1)))
    out = torch.empty(3)
    r = torch.add(torch.ones(3), torch.arange(3.0), out=out)
    print(r is out, out)
    torch.exp(torch.zeros(3), out=out)
    print(out, torch.mul(torch.ones(2), 3, out=torch.empty(2)))
    print(torch.matmul(x, x.t(), out=torch.empty(2, 2)))
    print(torch.sum(x, 0, out=torch.empty(3)), torch.cat([x, x], out=torch.empty(4, 3)).shape)
    print(torch.zeros(2, out=torch.empty(2)))
    """,
    "torch.add(torch.ones(2), 1, out=torch.zeros(2, dtype=torch.long))",
    "torch.add(torch.ones(2, requires_grad=True), 1, out=torch.zeros(2))",
)

# -- tensor functions and methods ------------------------------------------------------------------
snippet(
    "functions",
    """
    import torch
    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], requires_grad=True)
    v = torch.tensor([1.0, -1.0, 0.5])
    print(torch.mm(a, a.t()), a.mm(a.t()), torch.mv(a, v), a.mv(v), torch.dot(v, v), v.dot(v))
    print(a.norm(), a.norm(p=1), a.norm(dim=1), torch.norm(a, 2, 0, True), a.norm(p=float("inf")))
    print(a.norm(p="fro"))
    print(a.cumsum(1), torch.cumsum(a, dim=0), a.var(), a.var(0), a.std(), a.std(1, unbiased=False))
    print(a.var(correction=0))
    print(torch.equal(a, a.clone()), torch.equal(a, a[0]), torch.allclose(a, a + 1e-9))
    print(a.allclose(a * 2), torch.isclose(a, a + 1e-6))
    print((a > 2).all(), (a > 2).any(dim=1), torch.all(a > 0), torch.any(a > 6, 0), a.all())
    print(torch.tensor([0, 1]).any())
    print(a.expand_as(torch.zeros(2, 2, 3)).shape, v.expand_as(a), a.log10(), a.log2(), a.log1p())
    print(torch.log10(v.abs()))
    print(a.prod(), a.prod(1), torch.logsumexp(a, 1), a.sign(), a.floor(), a.round(), a.square())
    print(a.exp2(), a.rsqrt())
    print(torch.minimum(a, torch.tensor(3.0)), a.maximum(torch.ones(3) * 2))
    print(a.outer(v) if False else torch.outer(v, v))
    print(a.eq(2), torch.ne(a, 2), a.lt(3), torch.ge(a, 3), a.gt(5), torch.le(a, 1))
    print(a.masked_fill(a > 3, 0), a.repeat(1, 2).shape)
    print(a.view_as(torch.zeros(3, 2)), a.reshape_as(torch.zeros(6)))
    print(torch.tensor([1, 2]).type_as(a), a.new_zeros(2), a.new_ones((1, 2)), a.new_tensor([1, 2]))
    print(a.new_full((2,), 5))
    print(torch.tensor([7, -7]) % 3, torch.tensor([7.5, -7.5]) % 2, torch.tensor([7, -7]) // 2)
    print(10 // torch.tensor([3]), torch.remainder(torch.tensor([-3.0]), 2))
    print(torch.fmod(torch.tensor([-3.0]), 2))
    print(a.clip(2, 5), torch.clip(a, max=4), a.flatten(), a.flatten(0, 1))
    print(torch.flatten(torch.zeros(2, 3, 4), 1).shape)
    print(torch.div(torch.tensor([7, -7]), 2, rounding_mode="floor"))
    print(a.sum().item(), a.numel(), a.dim(), a.size(-1))
    """,
    "torch.mv(a, a)",
    "torch.dot(a, a)",
    "torch.mm(v, a)",
    "torch.tensor([1, 2]).var()",
    "torch.tensor([1, 2]).norm()",
    "torch.allclose(a, a.double())",
    "a.masked_fill(torch.tensor([1, 0, 1]), 0)",
)

snippet(
    "inplace",
    """
    import torch
    t = torch.tensor([0.0, 1.0, 2.0])
    names = "cos_ sin_ exp_ abs_ sqrt_ neg_ tanh_ sigmoid_ log1p_ floor_ round_"
    for name in names.split():
        t = torch.tensor([0.5, 1.0, 2.0])
        print(name, getattr(t, name)() is t, t)
    t.fill_(3).clamp_(max=2).add_(1).mul_(torch.tensor([1.0, 2.0, 3.0])).sub_(1, alpha=2).div_(2)
    print(t, t.pow_(2), t.zero_(), t.fill_(1.5).clamp_min_(2))
    print(t.copy_(torch.tensor([4.0, 5.0, 6.0])), t.masked_fill_(t > 4, 0))
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    h = w * 3
    h.cos_()
    print(h, h.grad_fn.name())
    h.clamp_(0, 1.5).exp_()
    print(h, h.grad_fn.name())
    h.sum().backward()
    print(w.grad)
    with torch.no_grad():
        w.clamp_(-0.5, 0.5)
    print(w)
    """,
    "w.cos_()",
    "torch.arange(3).cos_()",
    "torch.arange(3).div_(2)",
)

# -- nn --------------------------------------------------------------------------------------------
snippet(
    "nn_containers",
    """
    import torch
    import torch.nn as nn
    torch.nn.init.constant_  # exists
    m = nn.ModuleDict({"lin": nn.Linear(2, 3), "act": nn.ReLU()})
    print(m, list(m.keys()), len(m), "lin" in m, type(m["act"]).__name__)
    m["drop"] = nn.Dropout(0.2)
    print([k for k, _ in m.items()], list(dict(m.named_modules()).keys()))
    pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(2, 3))])
    pl.append(nn.Parameter(torch.ones(1, dtype=torch.float64)))
    print(pl, len(pl), [n for n, _ in pl.named_parameters()], pl[1].shape)
    pd = nn.ParameterDict({"w": nn.Parameter(torch.ones(2)), "b": nn.Parameter(torch.zeros(1))})
    print(pd, list(pd.keys()), pd["w"], [n for n, _ in pd.named_parameters()])

    class Holder(nn.Module):
        def __init__(self):
            super().__init__()
            self.p = nn.ParameterDict({"only": nn.Parameter(torch.ones(3))})
            self.q = nn.ParameterList([nn.Parameter(torch.ones(1))])
            self.register_buffer("steps", torch.zeros((), dtype=torch.long))
            self.register_buffer("cache", torch.ones(2), persistent=False)

    h = Holder()
    print(h, list(h.state_dict()), [n for n, _ in h.named_buffers()], list(h.buffers())[0])
    print(nn.Flatten(), nn.Flatten(0, 1)(torch.zeros(2, 3, 4)).shape, nn.LeakyReLU())
    print(nn.LeakyReLU(0.2, inplace=True), nn.Softmax(dim=1))
    print(nn.LeakyReLU(0.1)(torch.tensor([-2.0, 3.0])), nn.Softmax(dim=0)(torch.tensor([1.0, 2.0])))
    """,
)

snippet(
    "nn_layers",
    """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, -1.0], [2.0, 2.0, 2.0], [0.0, 1.0, 5.0]])
    x.requires_grad_()
    bn = nn.BatchNorm1d(3)
    print(bn, list(bn.state_dict()), bn.num_batches_tracked, bn.running_var)
    y = bn(x)
    print(y, bn.running_mean, bn.running_var, bn.num_batches_tracked)
    (y * torch.arange(12.0).reshape(4, 3)).sum().backward()
    print(x.grad, bn.weight.grad, bn.bias.grad)
    bn.eval()
    print(bn(x), bn.training)
    print(nn.BatchNorm1d(2, affine=False)(torch.arange(12.0).reshape(3, 2, 2)))
    emb = nn.Embedding(5, 2, padding_idx=0)
    with torch.no_grad():
        emb.weight.copy_(torch.arange(10.0).reshape(5, 2))
    out = emb(torch.tensor([[0, 3], [3, 1]]))
    out.sum().backward()
    print(emb, out, out.grad_fn.name(), emb.weight.grad)
    print(F.embedding(torch.tensor([1]), torch.eye(3)))
    d = nn.Dropout(0.5)
    d.eval()
    print(d, d(torch.ones(3)), F.dropout(torch.ones(2), 0.5, training=False))
    print(F.dropout(torch.ones(2), 0.0))
    print(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([[1], [0]]), num_classes=3))
    z = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
    t = torch.tensor([[1.0, 0.0], [1.0, 1.0]])
    loss = F.binary_cross_entropy_with_logits(z, t)
    loss.backward()
    print(loss, z.grad, F.binary_cross_entropy_with_logits(z, t, reduction="none"))
    print(F.binary_cross_entropy_with_logits(z, t, reduction="sum"))
    print(F.binary_cross_entropy_with_logits(z, t, pos_weight=torch.tensor([2.0, 0.5])))
    print(F.binary_cross_entropy_with_logits(z, t, weight=torch.tensor([1.0, 3.0])))
    print(nn.BCEWithLogitsLoss()(z, t), nn.L1Loss()(z, t), F.l1_loss(z, t, reduction="sum"))
    print(F.leaky_relu(z, 0.1))
    """,
    "F.one_hot(torch.tensor([0.0, 2.0]))",
    "F.one_hot(torch.tensor([0, 5]), 3)",
    "F.binary_cross_entropy_with_logits(z, torch.ones(3))",
    "nn.Dropout(1.5)",
    "bn.train()(torch.ones(1, 3))",
    "emb(torch.tensor([7]))",
)

snippet(
    "module_api",
    """
    import torch
    import torch.nn as nn
    net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))

    def init(m):
        if isinstance(m, nn.Linear):
            nn.init.constant_(m.weight, 0.5)
            nn.init.zeros_(m.bias)
        print("visit", type(m).__name__)

    print(net.apply(init) is net)
    sd = net.state_dict()
    print(list(sd), sd["0.weight"], type(sd).__name__)
    other = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    print(other.load_state_dict(sd), torch.equal(other[2].weight, net[2].weight))
    sd["2.bias"] = torch.ones(1)
    other.load_state_dict(sd)
    print(other[2].bias)
    r = nn.Linear(2, 3).load_state_dict({"weight": torch.zeros(3, 2)}, strict=False)
    print(r.missing_keys, r.unexpected_keys, r)
    """,
    "other.load_state_dict({'0.weight': torch.zeros(3, 2)})",
    "other.load_state_dict({**sd, '0.weight': torch.zeros(2, 2)})",
    "nn.Linear(2, 2).fooo",
)

snippet(
    "module_hooks",
    """
    import torch
    import torch.nn as nn
    import warnings
    warnings.simplefilter("ignore")
    lin = nn.Linear(2, 2)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[1.0, 2.0], [-1.0, 0.5]]))
        lin.bias.copy_(torch.tensor([0.1, -0.1]))
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: calls.append(("pre", args[0].shape)))
    h2 = lin.register_forward_hook(lambda m, args, out: calls.append(("post", out.detach())))
    x = torch.tensor([[1.0, 1.0]], requires_grad=True)
    y = lin(x)
    print(calls, y)
    h1.remove()
    h2.remove()
    lin.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
    lin.register_forward_hook(lambda m, args, out: out + 100)
    print(lin(x))
    seen = []

    def grads(module, grad_input, grad_output):
        seen.append((grad_input, grad_output))
        return (grad_input[0] * 10,)

    act = nn.Tanh()
    act.register_full_backward_hook(grads)
    z = act(x * 3)
    print(z.grad_fn.name())
    z.sum().backward()
    print(seen, x.grad)
    first = nn.Linear(2, 1)
    nn.init.ones_(first.weight)
    first.register_full_backward_hook(lambda m, gi, go: print("no input grad:", gi, go))
    first(torch.ones(1, 2)).sum().backward()
    """,
)

snippet(
    "sorting_and_picking",
    """
    import torch
    x = torch.tensor([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, 4.0, 5.0]], requires_grad=True)
    s = torch.sort(x, dim=1)
    print(s, x.sort(descending=True), x.argsort(dim=0), torch.argsort(x, 1, descending=True))
    print(x.topk(2), torch.topk(x, 3, dim=1, largest=False), x.topk(1, dim=0))
    print(x.chunk(2, dim=1), x.split(3, dim=1), x.split([1, 3], 1), torch.split(x, 1))
    g = torch.gather(x, 1, torch.tensor([[0, 0], [3, 1]]))
    (s.values[:, :2].sum() + g.sum() + x.topk(2).values.sum() + x.chunk(2, 1)[1].sum()).backward()
    print(g, x.grad)
    print(torch.sort(torch.tensor([2, 1, 2, 1]), stable=True), torch.tensor([5, 3, 9]).topk(2))
    """,
    "x.topk(5)",
    "torch.gather(x, 1, torch.tensor([[0]], dtype=torch.int32))",
)

snippet(
    "schedulers_and_clipping",
    """
    import torch
    import warnings
    warnings.simplefilter("ignore")
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    for make in [
        lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5),
        lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[1, 3, 3], gamma=0.1),
        lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9),
        lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda epoch: 1 / (epoch + 1)),
        lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=3, eta_min=0.01),
    ]:
        opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
        sched = make(opt)
        lrs = []
        for epoch in range(8):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr()[0])
        print(type(sched).__name__, lrs, opt.param_groups[0]["lr"], sched.last_epoch)
    print(opt)
    w.grad = torch.tensor([3.0, 4.0])
    print(torch.nn.utils.clip_grad_norm_([w], 1.0), w.grad)
    w.grad = torch.tensor([3.0, -4.0])
    print(torch.nn.utils.clip_grad_norm_(w, 10.0, norm_type=1), w.grad)
    torch.nn.utils.clip_grad_value_([w], 0.5)
    print(w.grad)
    """,
)

# -- torch.utils.data ------------------------------------------------------------------------------
snippet(
    "data",
    """
    import torch
    from torch.utils.data import DataLoader, Dataset, Subset, TensorDataset, random_split
    from torch.utils.data import ConcatDataset
    X, y = torch.arange(10.0).reshape(5, 2), torch.arange(5)
    ds = TensorDataset(X, y)
    print(len(ds), ds[1], ds[1:3], ds.tensors[1])
    for drop in (False, True):
        loader = DataLoader(ds, batch_size=2, drop_last=drop)
        print(len(loader), [(a.shape, b) for a, b in loader])
    print(next(iter(DataLoader(ds, batch_size=None))), next(iter(DataLoader(ds))))

    class D(Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return {"x": float(i), "y": [i, i * 2], "z": (i, "a"), "t": torch.ones(2) * i}

    print(next(iter(DataLoader(D(), batch_size=3))))
    print(next(iter(DataLoader([1, 2, 3], batch_size=2))))
    print(next(iter(DataLoader([(torch.ones(2), 1.5)], batch_size=2))))
    print(next(iter(DataLoader([True, False], batch_size=2))))
    print(next(iter(DataLoader(["a", "b"], batch_size=2))))
    sub = Subset(ds, [4, 0])
    print(len(sub), sub[0], len(ConcatDataset([ds, sub])), (ds + sub)[6])
    parts = random_split(range(10), [3, 7])
    print([len(p) for p in parts], sorted(parts[0].indices + parts[1].indices) == list(range(10)))
    print(type(parts[0]).__name__)
    print([len(p) for p in random_split(range(10), [0.5, 0.3, 0.2])])
    print([len(p) for p in random_split(range(11), [0.5, 0.5])])
    loader = DataLoader(ds, batch_size=2, shuffle=True)
    print(len(loader), sorted(int(i) for _, b in loader for i in b), loader.batch_size)
    print(loader.dataset is ds)
    """,
    "TensorDataset(X, torch.arange(4))",
    "random_split(range(10), [3, 6])",
    "DataLoader(ds, batch_size=0)",
    "DataLoader(ds, sampler=[0], shuffle=True)",
    "next(iter(DataLoader([object()], batch_size=1)))",
)

snippet(
    "data_random_numbers",
    """
    import torch
    from torch.utils.data import DataLoader, RandomSampler, TensorDataset, random_split
    torch.manual_seed(3)
    ds = TensorDataset(torch.arange(20.0).reshape(10, 2), torch.arange(10))
    loader = DataLoader(ds, batch_size=3, shuffle=True)
    for epoch in range(3):
        print(epoch, [b.tolist() for _, b in loader])
    print([b.tolist() for _, b in DataLoader(ds, batch_size=4)], torch.rand(2))
    it = iter(DataLoader(ds, batch_size=4, shuffle=True))
    print(torch.rand(1), next(it)[1])
    g = torch.Generator().manual_seed(7)
    print([b.tolist() for _, b in DataLoader(ds, batch_size=5, shuffle=True, generator=g)])
    print([list(p) for p in random_split(range(8), [5, 3])], torch.rand(1))
    g = torch.Generator().manual_seed(42)
    print([p.indices for p in random_split(range(10), [0.3, 0.3, 0.4], generator=g)])
    print(list(RandomSampler(range(7), replacement=True, num_samples=40)))
    print(list(RandomSampler(range(4), num_samples=10)), torch.randn(2))
    """,
)

# -- torch.autograd --------------------------------------------------------------------------------
snippet(
    "autograd_api",
    """
    import torch
    import warnings
    from torch.autograd import Variable, gradcheck
    from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp
    warnings.simplefilter("ignore")
    v = Variable(torch.tensor([1.0, 2.0]), requires_grad=True)
    print(v, isinstance(v, Variable), isinstance(torch.zeros(1), Variable))
    print(Variable(torch.ones(2)).requires_grad, Variable(v * 2))
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.double, requires_grad=True)
    print(gradcheck(torch.sin, (x,)), gradcheck(lambda a: (a * a).sum(), x))
    print(gradcheck(lambda a, b: a * b, (x, x.detach().clone().requires_grad_())))

    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a**2

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 3 * a

    print(gradcheck(Wrong.apply, (x,), raise_exception=False))
    try:
        gradcheck(Wrong.apply, (x,))
    except RuntimeError as error:
        print(type(error).__name__, str(error))
    f = lambda a: a**2 + a.sin()
    y = torch.tensor([1.0, 2.0])
    print(jacobian(f, y), jacobian(lambda a, b: a * b, (y, y + 1)))
    print(jacobian(lambda a: (a * 2, a.sum()), y))
    print(hessian(lambda a: (a**3).sum(), y), hessian(lambda a, b: (a * b).sum(), (y, y)))
    print(hessian(lambda a: a.exp().prod(), y))
    print(vjp(f, y, torch.ones(2)), vjp(lambda a: a.sum(), y), jvp(f, y, torch.ones(2)))
    print(hvp(lambda a: (a**3).sum(), y, torch.ones(2)))
    print(vhp(lambda a: (a.sin() * a).sum(), y, torch.tensor([1.0, 0.0])))
    print(jacobian(f, y, create_graph=True).requires_grad, jacobian(lambda a: torch.ones(2), y))
    w = torch.tensor(3.0, requires_grad=True)
    (g,) = torch.autograd.grad(w**3, w, create_graph=True)
    (g2,) = torch.autograd.grad(g, w, create_graph=True)
    g2.backward()
    print(g, g2, w.grad)
    u = torch.tensor([1.0, 2.0], requires_grad=True)
    (u.exp() * u).sum().backward(create_graph=True)
    print(u.grad)
    u.grad.sum().backward()
    print(u.grad)
    """,
    "gradcheck(torch.sin, (torch.ones(2, dtype=torch.double),))",
    "Variable([1.0])",
    "vjp(f, y)",
    "jacobian(lambda a: 3.0, y)",
)

# -- torch.save / torch.load -----------------------------------------------------------------------
snippet(
    "save_load",
    """
    import io
    import torch
    import torch.nn as nn
    buf = io.BytesIO()
    saved = {"a": torch.arange(3.0), "n": 3, "s": torch.Size([2]), "d": torch.float64}
    torch.save({**saved, "l": [1.5, "x"], "dev": torch.device("cpu")}, buf)
    buf.seek(0)
    print(torch.load(buf))
    net = nn.Linear(2, 1)
    nn.init.constant_(net.weight, 0.25)
    nn.init.constant_(net.bias, -0.5)
    buf = io.BytesIO()
    torch.save(net.state_dict(), buf)
    buf.seek(0)
    loaded = torch.load(buf)
    print(loaded, type(loaded).__name__)
    buf = io.BytesIO()
    torch.save(nn.Parameter(torch.ones(2)), buf)
    buf.seek(0)
    print(torch.load(buf))
    buf = io.BytesIO()
    torch.save(net, buf)
    buf.seek(0)
    print(torch.load(buf, weights_only=False))
    buf.seek(0)
    """,
    "torch.load(buf)",
)

# -- printing --------------------------------------------------------------------------------------
snippet(
    "printoptions",
    """
    import torch
    x = torch.tensor([1.123456789, 22.5, 333.25])
    torch.set_printoptions(precision=2)
    print(x)
    torch.set_printoptions(sci_mode=True)
    print(x)
    torch.set_printoptions(profile="default")
    torch.set_printoptions(threshold=5, edgeitems=2)
    print(torch.arange(10.0))
    torch.set_printoptions(profile="default")
    print(torch.arange(10.0), x)
    print(type(x), type(torch.nn.Parameter(x)), type(x.dtype), type(x.shape), type(x.device))
    """,
)

# -- process-wide switches, torch.testing, checkpointing, SyncBatchNorm (issue 27) ---------------
snippet(
    "runtime switches",
    """
    import torch
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    print(torch.get_num_threads())
    torch.use_deterministic_algorithms(True)
    print(torch.are_deterministic_algorithms_enabled(), torch.get_deterministic_debug_mode())
    torch.set_deterministic_debug_mode("warn")
    print(torch.is_deterministic_algorithms_warn_only_enabled())
    torch.use_deterministic_algorithms(False)
    print(torch.are_deterministic_algorithms_enabled(), torch.get_deterministic_debug_mode())
    torch.set_num_threads(threads)
    """,
    "torch.set_num_threads(0)",
    "torch.set_num_threads(1.5)",
    "torch.use_deterministic_algorithms(1)",
    "torch.set_deterministic_debug_mode('loud')",
)
snippet(
    "assert_close",
    """
    import torch
    from torch.testing import assert_close
    pairs = [
        (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0])),
        (torch.tensor([1, 2]), torch.tensor([1, 3])),
        (torch.ones(2, 2), torch.tensor([[1.0, 1.0], [1.0, 1.1]])),
        (torch.tensor(float("nan")), torch.tensor(float("nan"))),
        (torch.ones(2), torch.ones(2, dtype=torch.float64)),
        (torch.ones(2), torch.ones(3)),
        ([1.0, 2.0], [1.0, 2.5]),
        (3, 4),
        (2, 2.0),
        (torch.tensor([1.0, float("inf")]), torch.tensor([1.0, float("inf")])),
    ]
    for actual, expected in pairs:
        try:
            assert_close(actual, expected)
            print("close")
        except AssertionError as error:
            print(error)
    assert_close(torch.tensor(float("nan")), torch.tensor(float("nan")), equal_nan=True)
    assert_close(torch.ones(2), torch.ones(2).double() * 1.1, rtol=0.2, atol=0.0, check_dtype=False)
    """,
    "assert_close(torch.ones(2), torch.ones(2) * 1.1, rtol=0.2)",
    "assert_close(torch.ones(2), [1.0, 1.0])",
)
snippet(
    "checkpoint and SyncBatchNorm",
    """
    import torch
    from torch.utils.checkpoint import checkpoint, checkpoint_sequential
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
    x = torch.randn(5, 3)
    y = checkpoint(net, x, use_reentrant=False)
    y.sum().backward()
    print(y.grad_fn.name(), net[0].weight.grad)
    print(checkpoint_sequential(net, 2, x, use_reentrant=False).flatten())
    bn = torch.nn.BatchNorm1d(3)
    bn.weight.data.fill_(2.0)
    model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(torch.nn.Sequential(bn, torch.nn.ReLU()))
    print(model, model[0].weight is bn.weight, model[0].running_mean is bn.running_mean)
    print(model(x).mean(0), model[0].running_mean)
    """,
    "torch.nn.SyncBatchNorm(3)(torch.ones(3))",
    "torch.nn.SyncBatchNorm(0)(torch.ones(2, 0))",
)

snippet(
    "gradgradcheck's random grad_outputs",
    """
    import torch
    torch.manual_seed(3)
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    w = torch.randn(3, dtype=torch.float64, requires_grad=True)
    print(torch.autograd.gradgradcheck(lambda a: (a.sin() * a).sum(0, keepdim=True) * a, (x,)))
    print(torch.rand(2))  # the check drew its grad_outputs from the same generator
    print(torch.autograd.gradgradcheck(lambda a, b: ((a * b).tanh(), a.exp()), (x, w)))
    print(torch.rand(2))
    ones = (torch.ones(3, dtype=torch.float64),)
    print(torch.autograd.gradgradcheck(lambda a, b: (a * b).tanh(), (x, w), ones), torch.rand(2))
    """,
)

# -- error text for what autoviz does not have -----------------------------------------------------


def run_snippet(source: str, engine: str) -> list[str]:
    """The lines `source` prints (warnings aside), under `engine`."""
    out = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out):
        warnings.simplefilter("ignore")
        if engine == "torch":
            exec(compile(source, "<snippet under torch>", "exec"), {"__name__": "__snippet__"})
        else:
            with autoviz.as_torch():
                exec(
                    compile(source, "<snippet under autoviz>", "exec"), {"__name__": "__snippet__"}
                )
    return re.sub(r" object at 0x[0-9a-fA-F]+", " object at 0x…", out.getvalue()).splitlines()


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_prints_what_pytorch_prints(name):
    pytest.importorskip("torch")
    want = run_snippet(SNIPPETS[name], "torch")
    got = run_snippet(SNIPPETS[name], "autoviz")
    assert got == want


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_runs_on_autoviz_alone(name):
    assert run_snippet(SNIPPETS[name], "autoviz")
