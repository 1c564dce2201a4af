"""EECS 498-007 style "pytorch101": tensor basics, dtypes, construction, slicing, reshape"""

import torch

print("torch version major:", torch.__version__.split(".")[0])

# --- creating tensors --------------------------------------------------------
a = torch.tensor([1, 2, 3])
print("a:", a, a.dtype, a.dim(), a.shape, a.size(0))
b = torch.tensor([[1, 2, 3], [4, 5, 5]])
print("b:\n", b)
print("b.shape", b.shape, "b.numel()", b.numel(), type(b.shape))
print("b[0, 1] =", b[0, 1], "item:", b[0, 1].item(), type(b[0, 1].item()))
b[1, 2] = 100
print("after mutation\n", b)


def create_sample_tensor():
    x = torch.zeros(3, 2)
    x[0, 1] = 10
    x[1, 0] = 100
    return x


x = create_sample_tensor()
print(x)


def mutate_tensor(x, indices, values):
    for (i, j), v in zip(indices, values):
        x[i, j] = v
    return x


print(mutate_tensor(torch.zeros(3, 2), [(0, 0), (1, 0), (1, 1)], [4, 5, 6]))


def count_tensor_elements(x):
    n = 1
    for d in x.shape:
        n *= d
    return n


for shape in [(2, 3, 4), (5,), (0, 7), ()]:
    t = torch.zeros(shape)
    print(shape, count_tensor_elements(t), t.numel())

# --- constructors -----------------------------------------------------------
print(torch.zeros(2, 3))
print(torch.ones(2, 3, dtype=torch.int32))
print(torch.eye(3))
print(torch.full((2, 2), 7.5))
print(torch.full((2, 2), 7))
print(torch.arange(10))
print(torch.arange(1, 4, 0.5))
print(torch.linspace(0, 1, steps=5))
print(torch.logspace(0, 2, steps=3))
print(torch.empty(2, 2).shape)
print(torch.zeros_like(x), torch.ones_like(a))
print(torch.full_like(x, 3))
torch.manual_seed(498)
print(torch.rand(2, 3))
print(torch.randn(2, 3))
print(torch.randint(0, 10, (3, 4)))
print(torch.randperm(7))
print(torch.rand(2, 2, dtype=torch.float64))
print(torch.normal(mean=torch.zeros(4), std=torch.arange(1.0, 5.0)))

# --- datatypes -------------------------------------------------------------
x0 = torch.tensor([1, 2])
x1 = torch.tensor([1.0, 2.0])
x2 = torch.tensor([1.0, 2], dtype=torch.int64)
x3 = torch.tensor([True, False])
print("dtypes:", x0.dtype, x1.dtype, x2.dtype, x3.dtype)
for dt in [
    torch.float32,
    torch.float64,
    torch.int8,
    torch.uint8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.bool,
    torch.float16,
]:
    t = torch.tensor([-1.7, 0.0, 2.9, 300.0]).to(dt)
    print(f"{dt!s:14s}", t, t.element_size(), t.is_floating_point())
y0 = torch.eye(3, dtype=torch.int64)
y1 = y0.float()
y2 = y0.double()
y3 = y0.to(torch.float32)
y4 = y0.to(x1)
print(y1.dtype, y2.dtype, y3.dtype, y4.dtype)
print(y0.new_zeros(2, 2), y0.new_ones(1, 3).dtype, y1.new_full((2,), 3.3), y1.new_tensor([1, 2]))
print(
    "promotion:",
    (torch.tensor([1, 2]) + torch.tensor([0.5, 0.5])).dtype,
    (torch.tensor([1], dtype=torch.int8) + torch.tensor([1], dtype=torch.uint8)).dtype,
    (torch.tensor([1.0]) * 2.5).dtype,
    (torch.tensor([1]) / 2).dtype,
    (torch.tensor([7]) // 2),
    torch.result_type(torch.tensor([1]), 1.0),
    torch.promote_types(torch.int32, torch.float16),
    torch.can_cast(torch.float32, torch.int32),
)

# --- slicing ----------------------------------------------------------------
a = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
print("row 1", a[1, :], a[1, :].shape)
print("row 1 kept 2d", a[1:2, :], a[1:2].shape)
print("col 1", a[:, 1])
print("col 1 kept", a[:, 1:2])
print("a[:2, -3:]", a[:2, -3:])
print("every other", a[::2, ::2])
print("a[..., -1]", a[..., -1])
print("a[None].shape", a[None].shape, a[:, None, :].shape)


def slice_indexing_practice(x):
    last_row = x[-1, :]
    third_col = x[:, 2:3]
    first_two_rows_three_cols = x[:2, :3]
    even_rows_odd_cols = x[::2, 1::2]
    return last_row, third_col, first_two_rows_three_cols, even_rows_odd_cols


x = torch.arange(1, 25).reshape(4, 6)
for out in slice_indexing_practice(x):
    print(out.shape, out.tolist())


def slice_assignment_practice(x):
    x[:2, :2] = 0
    x[:2, 2:3] = 1
    x[:2, 3:6] = 2
    x[2:4, :4:2] = 3
    x[2:4, 1:4:2] = 4
    x[2:4, 4:] = 5
    return x


print(slice_assignment_practice(torch.zeros(4, 7, dtype=torch.int64)))

# slices share memory
a = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
b = a[0, 1:]
c = a[0, 1:].clone()
a[0, 1] = 20
print("shared:", b, "cloned:", c, b.data_ptr() == a[0, 1:].data_ptr())

# --- reshaping --------------------------------------------------------------
x0 = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
x1 = x0.view(8)
x2 = x1.view(1, 8)
x3 = x1.view(8, 1)
x4 = x1.view(2, 2, 2)
for t in (x1, x2, x3, x4):
    print(t.shape, t.is_contiguous())
print(x0.view(-1).shape, x0.view(-1, 2).shape, x0.reshape(4, -1))
print("x0.t()", x0.t(), x0.t().is_contiguous(), x0.t().stride())
x5 = torch.arange(24).view(2, 3, 4)
print(x5.transpose(1, 2).shape, x5.permute(2, 0, 1).shape, x5.permute(2, 0, 1).stride())
print(
    x5.unsqueeze(0).shape,
    x5.unsqueeze(-1).shape,
    x5[:, :1].squeeze(1).shape,
    torch.zeros(1, 3, 1).squeeze().shape,
)
print(x5.flatten(), x5.flatten(1).shape, x5.flatten(0, 1).shape)
try:
    x0.t().view(8)
except RuntimeError as e:
    print("RuntimeError:", e)
print(x0.t().contiguous().view(8))
print(x0.t().reshape(8))
try:
    torch.arange(6).view(4, -1)
except RuntimeError as e:
    print("RuntimeError:", e)


def reshape_practice(x):
    return x.view(2, 3, 4).transpose(0, 1).reshape(3, 8)


print(reshape_practice(torch.arange(24)))
print(torch.arange(12).unflatten(0, (3, 4)))
print(torch.movedim(x5, 0, -1).shape, x5.mT.shape, x5.swapaxes(0, 2).shape)
print(torch.tensor(3.5), torch.tensor(3.5).shape, torch.tensor(3.5).dim(), torch.tensor([]).shape)
print(repr(torch.tensor([[1e-5, 1.0], [1000.0, 2.0]])))
print(torch.tensor([1e10, 1.0]), torch.tensor([0.1, 123456.7]))
print(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5]))
print(torch.arange(2000.0).shape, torch.arange(2000.0))

# --- broadcasting and elementwise math (pytorch101 part 4) ------------------
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(x + torch.tensor([10.0, 20.0, 30.0]), x * torch.tensor([[2.0], [3.0]]))
print(torch.broadcast_shapes((2, 1, 3), (4, 1)), torch.broadcast_to(torch.tensor([1, 2]), (3, 2)))
print([t.shape for t in torch.broadcast_tensors(torch.ones(3, 1), torch.ones(1, 4))])


def normalize_columns(x):
    mu = x.sum(dim=0) / x.shape[0]
    sigma = ((x - mu) ** 2).sum(dim=0).div(x.shape[0] - 1).sqrt()
    return (x - mu) / sigma


print(
    normalize_columns(torch.tensor([[0.0, 30.0, 600.0], [1.0, 10.0, 200.0], [-1.0, 20.0, 400.0]]))
)
try:
    torch.ones(2, 3) + torch.ones(3, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(3).expand(2, 4)
except RuntimeError as e:
    print("RuntimeError:", e)
a = torch.tensor([-7, -3, 3, 7])
print(
    a // 2,
    a % 3,
    torch.div(a, 2, rounding_mode="trunc"),
    torch.div(a, 2, rounding_mode="floor"),
    torch.fmod(a, 3),
    torch.remainder(a, -3),
    a / 2,
)
print(
    torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5]).round(),
    torch.tensor([1.2345, 9.8765]).round(decimals=2),
    torch.tensor([-1.7, 1.7]).trunc(),
    torch.tensor([-1.7, 1.7]).frac(),
    torch.tensor([-1.5]).floor(),
    torch.tensor([-1.5]).ceil(),
)
print(
    torch.tensor([250], dtype=torch.uint8) + 10,
    torch.tensor([127], dtype=torch.int8) + 1,
    torch.tensor([3, 5]) & 6,
    torch.tensor([3, 5]) | 8,
    torch.tensor([3, 5]) ^ 1,
    torch.tensor([1, 2]) << 3,
    ~torch.tensor([0, 5]),
    ~torch.tensor([True, False]),
)
try:
    torch.tensor([1, 2]) ** -1
except RuntimeError as e:
    print("RuntimeError:", e)
print(
    torch.tensor([2, 3]) ** 2,
    torch.tensor([2.0, 3.0]) ** -1,
    2 ** torch.tensor([1, 2, 3]),
    torch.pow(2.0, torch.tensor([0.5])),
)
print(torch.arange(0, 1, 0.1).shape, torch.arange(0, 1, 0.1), torch.arange(1, 2.5, 0.3).tolist())
print(torch.linspace(-1, 1, 7).tolist())
print(
    torch.tensor([0.1, 0.2]).tolist(),
    torch.tensor(0.1).item(),
    torch.tensor([0.1], dtype=torch.float64).item(),
)
print(
    f"{torch.tensor(3.14159):.2f}",
    "{:6.3f}".format(torch.tensor(2.0)),
    f"{torch.tensor(5)}",
    str(torch.tensor(1.5)),
    format(torch.tensor(7), "03d"),
)
try:
    print(f"{torch.tensor([1.0, 2.0]):.2f}")
except TypeError as e:
    print("TypeError:", e)
print(
    torch.tensor([1.5, 2.5]).sum(dtype=torch.float64),
    torch.tensor([1, 2, 3], dtype=torch.int32).sum().dtype,
    torch.tensor([True, True, False]).sum(),
    torch.tensor([1, 2]).float().mean(),
    torch.tensor([1.0, 2.0, 3.0, 4.0]).var(),
    torch.tensor([1.0, 2.0, 3.0, 4.0]).var(correction=0),
    torch.std_mean(torch.tensor([1.0, 2.0, 3.0, 4.0])),
)
try:
    torch.tensor([1, 2, 3]).mean()
except RuntimeError as e:
    print("RuntimeError:", e)
print(
    torch.tensor([[1.0, 2.0], [3.0, 4.0]]).prod(),
    torch.tensor([[1.0, 2.0], [3.0, 4.0]]).prod(1),
    torch.logsumexp(torch.tensor([1.0, 2.0, 3.0]), 0),
    torch.nansum(torch.tensor([1.0, float("nan")])),
    torch.nanmean(torch.tensor([1.0, float("nan"), 3.0])),
)
print(
    torch.isclose(torch.tensor([1.0, 1.0001]), torch.tensor([1.0, 1.0])),
    torch.allclose(torch.tensor([1.0]), torch.tensor([1.0 + 1e-9])),
    torch.equal(torch.tensor([1, 2]), torch.tensor([1, 2])),
    torch.isnan(torch.tensor([1.0, float("nan")])),
    torch.isinf(torch.tensor([float("inf")])),
    torch.isfinite(torch.tensor([1.0, float("inf")])),
    torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")])),
)
print(
    torch.maximum(torch.tensor([1, 5]), torch.tensor([3, 2])),
    torch.minimum(torch.tensor([1.0, 5.0]), torch.tensor([3.0, 2.0])),
    torch.fmax(torch.tensor([float("nan"), 1.0]), torch.tensor([2.0, float("nan")])),
)
print(
    torch.sqrt(torch.tensor([4.0, -1.0])),
    torch.log(torch.tensor([0.0, 1.0, -1.0])),
    torch.tensor([1.0, 0.0, -1.0]) / 0,
    torch.exp(torch.tensor([88.0, 89.0, -104.0])),
)
try:
    torch.testing.assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
except AssertionError as e:
    print("AssertionError:", e)

# --- legacy constructors, .type(), numpy bridge, print options -----------------------
print(
    torch.get_default_dtype(),
    torch.FloatTensor([1, 2]),
    torch.LongTensor([1, 2]),
    torch.IntTensor(2, 2).shape,
    torch.Tensor([1, 2]).dtype,
    torch.BoolTensor([1, 0]),
    torch.DoubleTensor([1]),
)
print(
    torch.tensor([1.0, 2.0]).type(),
    torch.tensor([1, 2]).type(torch.float64),
    torch.tensor([1.7]).type(torch.IntTensor),
    torch.tensor([1]).type("torch.DoubleTensor").dtype,
    isinstance(torch.ones(1), torch.FloatTensor),
    isinstance(torch.ones(1), torch.Tensor),
)
import numpy as np

arr = np.arange(6, dtype=np.int32).reshape(2, 3)
t = torch.from_numpy(arr)
arr[0, 0] = 100
print(
    t,
    t.dtype,
    torch.tensor(arr).dtype,
    torch.as_tensor(np.array([1.5, 2.5])).dtype,
    torch.tensor(np.float32(2.5)),
    torch.tensor(np.array(3)),
)
n = torch.ones(2, 2).numpy()
print(type(n).__name__, n.dtype, repr(n))
tt = torch.zeros(3)
nn_ = tt.numpy()
tt[0] = 5
print(nn_)
print(
    torch.tensor([1, 2]).numpy().tolist(),
    np.asarray(torch.tensor([1.5])),
    torch.tensor([[1, 2]]).T.numpy().shape,
)
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.34567]), torch.tensor([1e-8, 1.0]))
torch.set_printoptions(precision=6, sci_mode=False)
print(torch.tensor([1e-8, 1.0, 123.456789]))
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10), torch.arange(30.0).view(5, 6))
torch.set_printoptions(linewidth=40, threshold=1000)
print(torch.arange(20.0))
torch.set_printoptions(profile="default")
print(
    torch.arange(20.0),
    torch.tensor([1.5], dtype=torch.float16),
    torch.tensor([65504.0, 1e-4], dtype=torch.float16) * 2,
    torch.tensor([1, 2], dtype=torch.int16),
    torch.tensor([1.0], requires_grad=True) * 2,
    torch.tensor([[1.0]], dtype=torch.float64, requires_grad=True),
)
print(torch.manual_seed(3), torch.initial_seed(), torch.random.initial_seed())
st = torch.get_rng_state()
r1 = torch.rand(2)
torch.set_rng_state(st)
r2 = torch.rand(2)
print(torch.equal(r1, r2), st.dtype, st.shape)
g = torch.Generator().manual_seed(1)
print(
    torch.randn(2, generator=g),
    torch.rand(2, generator=g),
    torch.randint(5, (3,), generator=g),
    torch.randperm(4, generator=g),
    g.initial_seed(),
)
torch.manual_seed(9)
print(
    torch.empty(3).uniform_(-1, 1),
    torch.empty(3).normal_(2, 0.1),
    torch.empty(3).random_(0, 10),
    torch.empty(3).exponential_(),
    torch.empty(2).bernoulli_(0.5),
    torch.rand_like(torch.ones(2)),
    torch.randint_like(torch.ones(3), 4),
    torch.randn_like(torch.ones(2, dtype=torch.float64)),
)
v = torch.tensor([1.5, -2.0])
print("unary ops:", -v, +v, abs(v), ~(v > 0))
