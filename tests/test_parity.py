"""Small PyTorch lesson scripts print the same lines under `import autoviz as torch`."""

import contextlib
import io
import re
import textwrap
import warnings

import pytest

LESSONS = {}


def lesson(name: str, source: str) -> None:
    LESSONS[name] = textwrap.dedent(source).strip() + "\n"


lesson(
    "lesson_example",
    """
    import torch

    x = torch.tensor(2.0, requires_grad=True)
    w = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    y = w * x
    z = y + b
    print(f"Result z: {z}")
    print(z)
    print(y)
    print(x)
    print(z.grad_fn)
    print(z.grad_fn.name())
    print([type(fn).__name__ for fn, _ in z.grad_fn.next_functions])
    print(z.grad_fn.next_functions[0][0].next_functions[0][0].variable is w)
    print(x.is_leaf, y.is_leaf, z.requires_grad, x.grad_fn)
    print(x.grad)
    z.backward()
    print(x.grad, w.grad, b.grad)
    print(f"dz/dx = {x.grad}, dz/dw = {w.grad}, dz/db = {b.grad}")
    print(x.grad.item(), type(x.grad.item()).__name__)
    """,
)

lesson(
    "retain_grad",
    """
    import torch

    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = a * a
    print(h.retains_grad)
    h.retain_grad()
    h.retain_grad()
    print(h.retains_grad, a.retains_grad)
    out = (h * 2).sum()
    out.backward()
    print(h.grad)
    print(a.grad)
    g = h.exp()
    print(g.grad)
    """,
)

lesson(
    "accumulation_and_zero",
    """
    import torch

    w = torch.tensor([1.0, -1.0], requires_grad=True)
    for step in range(2):
        loss = (w * w * 3).sum()
        loss.backward()
        print(step, w.grad)
    held = w.grad
    w.grad.zero_()
    print(w.grad, held)
    (w + 1).sum().backward()
    print(w.grad, held is w.grad)
    w.grad = None
    print(w.grad)
    (w * 5).sum().backward()
    print(w.grad)
    """,
)

lesson(
    "no_grad",
    """
    import torch

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    print(torch.is_grad_enabled())
    with torch.no_grad():
        y = x * 2
        print(torch.is_grad_enabled())
        with torch.enable_grad():
            e = x * 2
    print(torch.is_grad_enabled())
    print(y, y.requires_grad, y.grad_fn, y.is_leaf)
    print(e)

    @torch.no_grad()
    def double(t):
        return t * 2

    print(double(x))
    with torch.set_grad_enabled(False):
        print((x + 1).requires_grad)
    print((x + 1).requires_grad)
    torch.set_grad_enabled(False)
    print(torch.is_grad_enabled(), (x * 3).requires_grad)
    torch.set_grad_enabled(True)
    print(torch.is_grad_enabled())
    """,
)

lesson(
    "detach",
    """
    import torch

    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    print(d, d.requires_grad, d.is_leaf, d.grad_fn)
    d[0] = 100.0
    print(y)
    z = y * d
    z.sum().backward()
    print(x.grad)
    n = x.detach().numpy()
    print(n, n.dtype)
    print(x.detach().clone().requires_grad)
    """,
)

lesson(
    "requires_grad_",
    """
    import torch

    x = torch.ones(2, 2)
    print(x.requires_grad)
    x.requires_grad_()
    print(x.requires_grad, x.is_leaf)
    print(x)
    y = (x * 4).mean()
    print(y)
    y.backward()
    print(x.grad)
    x.requires_grad_(False)
    print(x.requires_grad, x)
    t = torch.tensor([3.0]).requires_grad_(True)
    print(t)
    """,
)

lesson(
    "non_scalar_backward",
    """
    import torch

    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    y.backward(gradient=torch.tensor([1.0, 0.1, 0.01]))
    print(x.grad)
    x.grad.zero_()
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = m * 3
    out.backward(torch.ones_like(out))
    print(m.grad)
    v = x * 2
    v.backward(torch.ones(3))
    print(x.grad)
    """,
)

lesson(
    "broadcasting",
    """
    import torch

    a = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
    b = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
    c = a + b
    print(c)
    print(c.shape)
    d = (a * b - 1) / 2
    print(d)
    d.sum().backward()
    print(a.grad)
    print(b.grad)
    s = torch.tensor(2.0, requires_grad=True)
    m = torch.ones(2, 3) * s + a[:2]
    m.sum().backward()
    print(s.grad)
    """,
)

lesson(
    "matmul",
    """
    import torch

    A = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    B = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], requires_grad=True)
    v = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
    C = A @ B
    print(C)
    print(A @ v)
    print(v @ B)
    print(v @ v)
    print(torch.matmul(A, B), torch.mm(A, B))
    print(A.T, A.t().shape)
    (C.sum() + (A @ v).sum() + (v @ v)).backward()
    print(A.grad)
    print(B.grad)
    print(v.grad)
    batch = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
    r = batch @ B
    print(r)
    r.sum().backward()
    print(batch.grad)
    """,
)

lesson(
    "reductions",
    """
    import torch

    x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
    print(x.sum(), x.mean())
    print(x.sum(0), x.sum(dim=1), x.sum(1, keepdim=True))
    print(x.mean(0), x.mean(dim=-1, keepdim=True))
    print(x.max(), x.min())
    print(x.max(dim=1))
    print(x.min(0))
    values, indices = x.max(1)
    print(values, indices)
    print(torch.max(x, 0).values, torch.min(x, 1).indices)
    print(x.argmax(), x.argmax(dim=0), x.argmin(1))
    loss = x.max() + x.min(1).values.sum() + x.mean(0).sum()
    loss.backward()
    print(loss)
    print(x.grad)
    print(x.softmax(dim=1))
    print(torch.log_softmax(x, dim=1))
    """,
)

lesson(
    "indexing",
    """
    import torch

    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
    print(x[0])
    print(x[:, 1:])
    print(x[1, 2])
    print(x[-1])
    print(x[[0, 2]])
    print(x[:, [2, 0]])
    mask = x > 4
    print(mask)
    print(x[mask])
    print(x[0][1])
    print(x[1:, :2].shape)
    for row in x[:2]:
        print(row)
    top, middle, bottom = x
    print(bottom, x.unbind(1)[2])
    total = x[0].sum() + x[:, 1:].sum() + x[mask].sum() + x[[0, 0]].sum() + (top * bottom).sum()
    total.backward()
    print(x.grad)
    """,
)

lesson(
    "printing",
    """
    import torch

    f1 = torch.tensor([1.0, 2.5, -3.0])
    f2 = torch.tensor([[0.1, 0.2], [30.0, 400.0]])
    i1 = torch.tensor([1, 2, 3])
    i2 = torch.tensor([[1, -2], [30, 4]])
    b1 = torch.tensor([True, False])
    b2 = torch.tensor([[True], [False]])
    for t in (f1, f2, i1, i2, b1, b2):
        print(t)
        print(t.shape, t.size(), t.dtype, t.ndim, t.dim(), t.numel(), len(t))
    print(f2.size(0), f2.size(-1), f2.shape[1])
    s = torch.tensor(3.14159)
    print(f"{s}", f"{s:.2f}", f"{torch.tensor(7)}", f"{torch.tensor(2.0)}")
    print(s.item(), float(s), int(torch.tensor(7)), bool(torch.tensor(True)))
    print(torch.tensor(0.5, dtype=torch.float64))
    print(torch.zeros(2, 3), torch.ones(3, dtype=torch.int64))
    print(torch.arange(5), torch.arange(0.0, 1.0, 0.25), torch.linspace(0, 1, 3))
    print(torch.tensor([1, 2]).float(), torch.tensor([1.7, -1.7]).long(), f1.tolist())
    print(torch.float32, torch.float, torch.int64, torch.long, torch.bool, torch.float64)
    print(i1 * 1.5, i1 / 2, (i1 + 1).dtype, (i1 * 2.0).dtype, b1.sum(), i1.sum())
    print(torch.tensor([1e-5, 1.0]), torch.tensor([1e10, 1.0]), torch.tensor([]))
    """,
)

lesson(
    "autograd_grad",
    """
    import torch

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor(3.0, requires_grad=True)
    y = (w * x * x).sum()
    gx, gw = torch.autograd.grad(y, [x, w])
    print(gx, gw)
    print(x.grad, w.grad)
    z = (x.exp()).sum()
    (g,) = torch.autograd.grad(z, x, retain_graph=True)
    print(g)
    (g2,) = torch.autograd.grad(z, (x,))
    print(g2)
    u = torch.tensor(1.0, requires_grad=True)
    print(torch.autograd.grad(x.sum(), [x, u], allow_unused=True))
    v = x * 2
    print(torch.autograd.grad(v, x, grad_outputs=torch.tensor([1.0, -1.0])))
    """,
)

lesson(
    "register_hook",
    """
    import torch

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.clone()))
    y = x * 3
    handle = y.register_hook(lambda g: g * 10)
    z = y.sum()
    z.backward()
    print(seen)
    print(x.grad)
    handle.remove()
    x.grad.zero_()
    (x * 3).sum().backward()
    print(x.grad)
    h = x * 2

    def show(grad):
        print("hook sees", grad)

    h.register_hook(show)
    h.sum().backward()
    print(x.grad)
    """,
)

lesson(
    "custom_function",
    """
    import torch

    class MyReLU(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return input.clamp(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            (input,) = ctx.saved_tensors
            grad_input = grad_output.clone()
            grad_input[input < 0] = 0
            return grad_input

    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, factor):
            ctx.factor = factor
            return x * factor

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.factor, None

    x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
    y = MyReLU.apply(x)
    print(y)
    print(y.grad_fn.name(), type(y.grad_fn).__name__)
    s = Scale.apply(y, 3.0)
    print(s)
    s.sum().backward()
    print(x.grad)
    with torch.no_grad():
        print(MyReLU.apply(x))
    """,
)

lesson(
    "training_loop",
    """
    import torch

    xs = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
    ys = torch.tensor([[3.0], [5.0], [7.0], [9.0]])
    w = torch.tensor([[0.5]], requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    lr = 0.05
    for epoch in range(5):
        pred = xs @ w + b
        loss = ((pred - ys) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
            w.grad.zero_()
            b.grad.zero_()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    print(w.is_leaf, w.requires_grad, w.grad_fn, w.grad)
    print(f"w = {w.item():.3f}, b = {b.item():.3f}")
    """,
)

lesson(
    "inplace_and_data",
    """
    import torch

    w = torch.tensor([1.0, 2.0], requires_grad=True)
    w.data.mul_(2)
    print(w)
    with torch.no_grad():
        w.add_(1)
        w *= 2
        w[0] = -1.0
    print(w, w.is_leaf, w.grad_fn)
    h = w * 1
    h.add_(1)
    print(h)
    h.mul_(2)
    print(h)
    h.sum().backward()
    print(w.grad)
    c = torch.zeros(3)
    c += 1
    c[1] = 5
    print(c)
    """,
)

lesson(
    "dtypes_and_creation",
    """
    import torch

    a = torch.tensor([1, 2, 3])
    f = torch.tensor([0.5, 1.5, 2.5])
    print(a.dtype, f.dtype, (a + f).dtype, (a * 2).dtype, (a / 2).dtype, (a > 1).dtype)
    print(a + f, a * 2, a / 2, a > 1)
    print(torch.zeros(2), torch.ones(2, 2), torch.full((2,), 3.0), torch.eye(2))
    print(torch.zeros_like(f), torch.ones_like(a), torch.tensor([[1, 2]]).shape)
    d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    print(d, (d * 2).dtype)
    print(torch.tensor([1.0, 2.0]).double(), torch.tensor([2.0]).to(torch.float64))
    print(torch.cat([f, f]), torch.stack([f, f]), torch.cat([f[None], f[None]], dim=1))
    print(torch.where(f > 1, f, torch.zeros_like(f)))
    """,
)

lesson(
    "activations_and_loss",
    """
    import torch

    z = torch.tensor([[-1.0, 0.5, 2.0], [0.0, -0.5, 1.0]], requires_grad=True)
    print(torch.relu(z), z.relu(), torch.sigmoid(z), torch.tanh(z))
    print(z.exp(), z.abs(), z.clamp(-0.5, 0.5), z.sin(), z.cos())
    p = torch.softmax(z, dim=1)
    print(p)
    target = torch.tensor([2, 0])
    logp = torch.log_softmax(z, dim=1)
    loss = -logp[torch.arange(2), target].mean()
    print(loss)
    loss.backward()
    print(z.grad)
    q = torch.tensor([0.25, 4.0], requires_grad=True)
    r = (q.sqrt() + q.log() + q ** 2 + 2 ** q + 1 / q - q).sum()
    r.backward()
    print(r, q.grad)
    """,
)

lesson(
    "views_and_layout",
    """
    import torch

    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    print(x.is_contiguous(), x.t().is_contiguous(), x.t().contiguous().is_contiguous())
    print(x.view(3, 2))
    print(x.t().reshape(6))
    print(x.t().contiguous().view(-1))
    print(x.t().reshape(3, 2), x.flatten(), x.view(-1, 2).shape)
    try:
        x.t().view(6)
    except RuntimeError as error:
        print("RuntimeError:", error)
    y = x.t().reshape(6)
    print(type(y.grad_fn.next_functions[0][0]).__name__)
    print(x.mT, x.T.shape, x.unsqueeze(0).mT.shape)
    (y * torch.arange(6.0)).sum().backward()
    print(x.grad)
    """,
)

lesson(
    "index_graphs",
    """
    import torch

    y = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()

    def chain(t):
        names, fn = [], t.grad_fn
        while fn is not None and fn.next_functions:
            names.append(fn.name())
            fn = fn.next_functions[0][0]
        return names

    for key in [0, (0, 1), (slice(None), 1), (0, slice(None), slice(1, None)), (None,),
                (Ellipsis, None), (Ellipsis,), (slice(None), slice(None)), slice(None),
                (slice(1, None), 0), ([0, 1],), (0, [0, 2])]:
        print(key, chain(y[key]), tuple(y[key].shape))
    print(chain(y[y > 20]), y[y > 20])
    """,
)

lesson(
    "setitem_and_copy_slices",
    """
    import torch

    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = w * 2
    h[0] = 10.0
    print(h)
    h[1:] = w[:2] * w[:2]
    print(h)
    h.sum().backward()
    print(w.grad)
    buf = torch.zeros(2, 3)
    buf[0] = w
    buf[1, 1:] = 7.0
    print(buf)
    buf.sum().backward()
    print(w.grad)
    m = torch.zeros(3)
    m[m == 0] = 5.0
    print(m)
    """,
)

lesson(
    "masks_and_conversions",
    """
    import torch

    x = torch.tensor([-2.0, -0.5, 0.0, 1.5, 3.0], requires_grad=True)
    inside = (x > -1) & (x < 2)
    print(inside, ~inside, inside | (x == 3), inside ^ (x > 0))
    print(x[inside], abs(x), x.clamp_min(0), torch.clamp(x, min=0))
    print(x.long(), x.int(), x.bool(), x.double())
    print(x.sum().item(), float(x.detach()[3]), int(x.detach()[4]))
    print(torch.tensor([0.0, -1.0]).log(), torch.tensor([-1.0, 4.0]).sqrt(), 1 / torch.zeros(2))
    print(torch.max(x.view(5, 1), torch.zeros(1, 2)))
    """,
)


# -- running a lesson ------------------------------------------------------------------------------
_ADDRESS = re.compile(r" object at 0x[0-9a-fA-F]+")
_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)")


def run_lesson(source: str, module: str) -> list[str]:
    """The lines `source` prints, then its warnings, with `import torch` meaning `module`."""
    if module != "torch":
        source = source.replace("import torch\n", f"import {module} as torch\n")
    out = io.StringIO()
    # The filters stay as they are, so a warning shows as it would in a script or notebook.
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        exec(compile(source, f"<lesson under {module}>", "exec"), {"__name__": "__lesson__"})
    lines = out.getvalue().splitlines()
    lines += [f"{w.category.__name__}: {w.message}" for w in caught]
    # Object addresses differ from run to run; torch adds where in its C++ a warning came from.
    return [_TRIGGERED.sub("", _ADDRESS.sub(" object at 0x…", line)) for line in lines]


TORCH_OUTPUT = {}


def torch_output(name: str) -> list[str]:
    pytest.importorskip("torch")
    if name not in TORCH_OUTPUT:
        TORCH_OUTPUT[name] = run_lesson(LESSONS[name], "torch")
    return TORCH_OUTPUT[name]


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_lesson_prints_what_pytorch_prints(name):
    """Each lesson, run with real torch and with autoviz, prints the same lines."""
    want = torch_output(name)
    got = run_lesson(LESSONS[name], "autoviz")
    assert got == want


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_lesson_runs_without_torch(name):
    """Each lesson runs under autoviz alone and prints something (even where torch is absent)."""
    assert run_lesson(LESSONS[name], "autoviz")
