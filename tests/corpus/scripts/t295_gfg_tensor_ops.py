"""GeeksforGeeks style: "Tensor operations in PyTorch" -- creation, indexing, math, reductions"""

import torch

print("torch version style check:", isinstance(torch.__version__, str))
torch.manual_seed(0)

# --- creation ---
a = torch.tensor([[1, 2, 3], [4, 5, 6]])
print("a =", a)
print("a.dtype:", a.dtype, "a.shape:", a.shape, "a.ndim:", a.ndim, "numel:", a.numel())
b = torch.tensor([1.5, 2.5, 3.5])
print("b =", b, b.dtype)
print("zeros:", torch.zeros(2, 3))
print("ones int:", torch.ones(2, 2, dtype=torch.int32))
print("full:", torch.full((2, 3), 7.25))
print("eye:", torch.eye(3))
print("arange:", torch.arange(0, 10, 2.5))
print("linspace:", torch.linspace(-1, 1, steps=5))
print("logspace:", torch.logspace(0, 3, steps=4))
print("empty_like shape:", torch.empty_like(a).shape)
print("zeros_like:", torch.zeros_like(b))
print("ones_like int:", torch.ones_like(a))
print("rand:", torch.rand(2, 3))
print("randn:", torch.randn(3))
print("randint:", torch.randint(0, 10, (2, 4)))
print("randperm:", torch.randperm(6))
print("normal:", torch.normal(mean=2.0, std=0.5, size=(3,)))
print("bool tensor:", torch.tensor([True, False, True]))
print("from list of floats & ints:", torch.tensor([1, 2.0, 3]))

# --- dtypes & conversion ---
c = a.float()
print("c:", c, c.dtype)
print("to double:", c.to(torch.float64))
print("half:", b.half())
print("long:", b.long())
print("int:", torch.tensor([-1.7, 1.7]).int())
print("bool():", torch.tensor([0, 2, 0]).bool())
print("type():", c.type(), a.type())
print("is_floating_point:", c.is_floating_point(), a.is_floating_point())
print("numpy:", c.numpy(), type(c.numpy()).__name__)
print("tolist:", a.tolist())
print("item:", a[1, 2].item(), type(a[1, 2].item()).__name__)
print("promotion int+float:", (a + 0.5).dtype, (a + torch.tensor(1.0, dtype=torch.float64)).dtype)
print("int / int:", torch.tensor([7, 8]) / torch.tensor([2, 3]))
print("int // int:", torch.tensor([7, -8]) // torch.tensor([2, 3]))
print("int % int:", torch.tensor([7, -8]) % torch.tensor([2, 3]))

# --- indexing & slicing ---
x = torch.arange(24).reshape(2, 3, 4)
print("x:", x)
print("x[0]:", x[0])
print("x[:, 1]:", x[:, 1])
print("x[..., -1]:", x[..., -1])
print("x[1, :, ::2]:", x[1, :, ::2])
print("x[None].shape:", x[None].shape, "x[:, None].shape:", x[:, None].shape)
mask = x > 15
print("mask sum:", mask.sum(), "x[mask]:", x[mask])
print("fancy:", x[0, [0, 2], [1, 3]])
print("index_select:", torch.index_select(x, 2, torch.tensor([0, 3])))
print("masked_fill:", x[0].masked_fill(x[0] % 2 == 0, -1))
print("gather:", torch.gather(x[0], 1, torch.tensor([[0], [1], [2]])))
y = torch.zeros(3, 4)
y[1] = 5
y[:, 2] = torch.tensor([1.0, 2.0, 3.0])
y[y == 0] = -0.5
print("after assignment:", y)

# --- reshaping ---
print("view:", x.view(6, 4).shape, "reshape -1:", x.reshape(-1, 2).shape)
print("permute:", x.permute(2, 0, 1).shape, "transpose:", x.transpose(0, 2).shape)
print("is_contiguous after transpose:", x.transpose(0, 1).is_contiguous())
print(
    "flatten:",
    x.flatten(1).shape,
    "unsqueeze:",
    b.unsqueeze(0).shape,
    "squeeze:",
    torch.zeros(1, 3, 1).squeeze().shape,
)
print("squeeze(dim):", torch.zeros(1, 3, 1).squeeze(-1).shape)
try:
    x.transpose(0, 1).view(-1)
except RuntimeError as e:
    print("view error:", e)
try:
    x.view(5, 5)
except RuntimeError as e:
    print("shape error:", e)
print("cat dim0:", torch.cat([a, a * 10]).shape, "cat dim1:", torch.cat([a, a], dim=1))
print("stack:", torch.stack([b, b * 2], dim=1))
print("hstack:", torch.hstack([b, b]), "vstack:", torch.vstack([b, b]).shape)
print("chunk:", torch.arange(10).chunk(3))
print("split:", torch.arange(10).split([3, 3, 4]))
print("unbind:", torch.unbind(a, dim=1))
print("repeat:", b.repeat(2, 2))
print("expand:", b.expand(2, 3))
print("repeat_interleave:", torch.repeat_interleave(torch.tensor([1, 2, 3]), 2))
print("flip:", torch.flip(a, dims=[1]), "roll:", torch.roll(torch.arange(5), 2))
print("tril:", torch.tril(torch.ones(3, 3)), "triu k=1:", torch.triu(torch.ones(3, 3), diagonal=1))

# --- math ---
p = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
q = torch.tensor([[0.5, 1.0], [-1.0, 2.0]])
print("add:", p + q, torch.add(p, q, alpha=2))
print("sub/mul/div:", p - q, p * q, p / q)
print("pow:", p**2, torch.pow(2, torch.tensor([1.0, 2.0, 3.0])))
print("matmul:", p @ q, torch.mm(p, q), torch.matmul(p, q[0]))
print("dot:", torch.dot(b, b), "outer:", torch.outer(b, b))
print("abs/neg/sign:", p.abs(), -p, p.sign())
print("sqrt/exp/log:", torch.sqrt(p.abs()), torch.exp(q), torch.log(p.abs()))
print("clamp:", p.clamp(min=-1, max=3), torch.clamp(p, max=0))
print(
    "round/floor/ceil/trunc:",
    torch.tensor([-1.5, -0.5, 0.5, 1.5, 2.7]).round(),
    torch.tensor([-1.5, 2.7]).floor(),
    torch.tensor([-1.5, 2.7]).ceil(),
    torch.tensor([-1.5, 2.7]).trunc(),
)
print("round decimals:", torch.round(torch.tensor([1.23456, 9.87654]), decimals=2))
print("sigmoid/tanh:", torch.sigmoid(q), torch.tanh(q))
print("reciprocal/rsqrt:", torch.tensor([2.0, 4.0]).reciprocal(), torch.tensor([4.0, 16.0]).rsqrt())
print(
    "remainder/fmod:",
    torch.remainder(torch.tensor([-3.0, 3.0]), 2),
    torch.fmod(torch.tensor([-3.0, 3.0]), 2),
)
print("lerp:", torch.lerp(torch.zeros(3), torch.ones(3) * 10, 0.3))
print(
    "addcmul:",
    torch.addcmul(torch.ones(2), torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), value=0.5),
)
p2 = p.clone()
p2.add_(1).mul_(2)
print("in-place chain:", p2)

# --- reductions ---
r = torch.tensor([[3.0, 1.0, 4.0], [1.0, 5.0, 9.0]])
print("sum:", r.sum(), r.sum(dim=0), r.sum(dim=1, keepdim=True))
print("mean:", r.mean(), r.mean(0))
print("std/var:", r.std(), r.var(dim=1), r.std(dim=1, unbiased=False))
print("max:", r.max(), r.max(dim=1))
print("min values/indices:", r.min(dim=0).values, r.min(dim=0).indices)
print("argmax:", r.argmax(), r.argmax(dim=1))
print("prod:", r.prod(dim=1), "cumsum:", r.cumsum(dim=1), "cumprod:", r.cumprod(1))
print("median:", r.median(), torch.median(r, dim=1))
print("mode:", torch.tensor([1, 2, 2, 3, 3, 3]).mode())
print("norm:", r.norm(), torch.linalg.norm(r, dim=1), r.norm(p=1))
print("logsumexp:", torch.logsumexp(r, dim=1))
print("all/any:", (r > 0).all(), (r > 8).any(), (r > 2).all(dim=1))
print("count_nonzero:", torch.count_nonzero(r > 2))
print("aminmax:", torch.aminmax(r))
print("quantile:", torch.quantile(r.flatten(), torch.tensor([0.25, 0.5, 0.75])))

# --- comparisons / sorting ---
s = torch.tensor([5, 1, 4, 1, 3, 9, 2])
print("sort:", torch.sort(s), "descending:", torch.sort(s, descending=True).values)
print("argsort:", s.argsort())
print("topk:", torch.topk(s, 3))
print("kthvalue:", torch.kthvalue(s, 2))
print("unique:", torch.unique(s), torch.unique(s, return_counts=True))
print("unique_consecutive:", torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1])))
print("eq/ne/gt:", s.eq(1), s.ne(1), torch.gt(s, 3))
print("where:", torch.where(s > 3, s, torch.zeros_like(s)))
print("where 1-arg:", torch.where(s > 3))
print("nonzero:", torch.nonzero(s > 3), torch.nonzero(s > 3, as_tuple=True))
print("isin:", torch.isin(s, torch.tensor([1, 9])))
print(
    "equal/allclose:",
    torch.equal(s, s.clone()),
    torch.allclose(torch.tensor([1.0]), torch.tensor([1.0 + 1e-9])),
)
print("maximum/minimum:", torch.maximum(p, q), torch.minimum(p, q))
print("bucketize:", torch.bucketize(torch.tensor([0.1, 2.5, 7.0]), torch.tensor([1.0, 2.0, 5.0])))
print("searchsorted:", torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([0, 3, 6, 8])))
print("histc:", torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0, 5.0]), bins=4, min=0, max=5))
print("bincount:", torch.bincount(torch.tensor([0, 1, 1, 3])))
print("diag:", torch.diag(torch.tensor([1.0, 2.0])), torch.diag(r[:, :2]))
print("trace:", torch.trace(p), "det:", torch.det(p), "inverse:", torch.inverse(p))
print("einsum:", torch.einsum("ij,jk->ik", p, q), torch.einsum("ii", p))
print("kron:", torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0]])))
print("cross:", torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])))
print("meshgrid:", torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij"))
print("cartesian_prod:", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])))
print("combinations:", torch.combinations(torch.tensor([1, 2, 3]), r=2))

# --- broadcasting and errors ---
print("broadcast (3,1)+(1,4):", (torch.ones(3, 1) + torch.arange(4)).shape)
print("broadcast_shapes:", torch.broadcast_shapes((2, 1, 3), (4, 3)))
try:
    torch.ones(3, 2) + torch.ones(4)
except RuntimeError as e:
    print("broadcast error:", e)
try:
    torch.mm(torch.ones(2, 3), torch.ones(2, 3))
except RuntimeError as e:
    print("mm error:", e)
try:
    torch.tensor([1, 2]).mean()
except RuntimeError as e:
    print("mean int error:", e)
try:
    torch.cat([torch.ones(2, 3), torch.ones(2, 4)])
except RuntimeError as e:
    print("cat error:", e)
try:
    a[5]
except IndexError as e:
    print("index error:", e)
try:
    torch.tensor([1, 2, 3]).item()
except RuntimeError as e:
    print("item error:", e)

# --- more everyday ops (GfG "PyTorch functions you should know") ---
import numpy as np

m = torch.arange(12.0).reshape(3, 4)
print("tensor_split:", torch.tensor_split(torch.arange(7), 3))
print("tensor_split indices:", torch.tensor_split(torch.arange(7), [2, 5]))
print(
    "movedim:",
    torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape,
    "swapaxes:",
    m.swapaxes(0, 1).shape,
)
print("narrow:", m.narrow(1, 1, 2))
print("take_along_dim:", torch.take_along_dim(m, torch.tensor([[0], [3], [1]]), dim=1))
print("diff:", torch.diff(torch.tensor([1, 4, 9, 16])), torch.diff(m, dim=0))
print("cummax:", torch.cummax(torch.tensor([1, 3, 2, 5, 4]), dim=0))
print("logcumsumexp:", torch.logcumsumexp(torch.tensor([0.0, 1.0, 2.0]), dim=0))
print("unflatten:", torch.arange(6).unflatten(0, (2, 3)))
print("diag_embed:", torch.diag_embed(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).shape)
print("block_diag:", torch.block_diag(torch.ones(1, 1), 2 * torch.ones(2, 2)))
print("rot90:", torch.rot90(torch.arange(4).view(2, 2)))
print(
    "atleast_2d:",
    torch.atleast_2d(torch.tensor(3.0)),
    "column_stack:",
    torch.column_stack([torch.arange(3), torch.arange(3) * 2]),
)
print("dstack:", torch.dstack([torch.ones(2, 2), torch.zeros(2, 2)]).shape)
print(
    "new_zeros/new_full/new_tensor:",
    m.new_zeros(2),
    m.new_full((2,), 7),
    m.new_tensor([1, 2]).dtype,
)
print("std_mean:", torch.std_mean(m, dim=1), "var_mean:", torch.var_mean(m, unbiased=False))
print("amax/amin:", m.amax(dim=0), m.amin(dim=(0, 1)))
nanv = torch.tensor([1.0, float("nan"), 3.0, float("inf"), -float("inf")])
print("isnan/isinf/isfinite:", nanv.isnan(), nanv.isinf(), nanv.isfinite())
print("sign with nan:", torch.sign(nanv))
print("nan_to_num:", torch.nan_to_num(nanv, nan=0.0, posinf=100.0, neginf=-100.0))
print("nansum/nanmean:", torch.nansum(nanv[:3]), torch.nanmean(nanv[:3]))
print("max with nan:", nanv[:3].max(), "sort with nan:", torch.sort(nanv).values)
print("nanmedian:", torch.tensor([1.0, float("nan"), 3.0, 2.0]).nanmedian())
h = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float16)
print("float16 math:", h + h, (h * 1000).sum(), h.dtype, (h + 1.0).dtype)
print("float16 + float32:", (h + torch.tensor([1.0, 2.0, 3.0])).dtype)
bits = torch.tensor([0b1100, 0b1010], dtype=torch.int32)
print("bitwise:", bits & 0b1000, bits | 1, bits ^ 0b1111, ~bits, bits << 1, bits >> 2)
print(
    "logical:",
    torch.logical_and(torch.tensor([True, False]), torch.tensor([True, True])),
    torch.logical_not(torch.tensor([0, 1])),
)
arr = np.array([1.0, 2.0, 3.0], dtype=np.float32)
t_from = torch.from_numpy(arr)
arr[0] = 100.0
print("from_numpy shares memory:", t_from)
t_as = torch.as_tensor(arr)
t_copy = torch.tensor(arr)
arr[1] = -5.0
print("as_tensor shares:", t_as, "tensor copies:", t_copy)
print(
    "from float64 numpy:",
    torch.from_numpy(np.array([1.5, 2.5])).dtype,
    torch.tensor(np.int64(3)).dtype,
)
print("clone is independent:", (lambda c: (c.add_(1), m[0, 0].item())[1])(m.clone()))
print("contiguous:", m.t().contiguous().is_contiguous(), m.t().stride(), m.stride())
print(
    "storage offset:",
    m[1:, 1:].storage_offset(),
    "element_size:",
    m.element_size(),
    torch.zeros(1, dtype=torch.int16).element_size(),
)
print(
    "sum dtype of bool:",
    torch.tensor([True, True, False]).sum(),
    torch.tensor([True, True]).sum().dtype,
)
print(
    "sum int8 dtype:",
    torch.tensor([100, 100], dtype=torch.int8).sum().dtype,
    torch.tensor([100, 100], dtype=torch.int8) + torch.tensor([100, 100], dtype=torch.int8),
)
print(
    "mean with dtype arg:",
    torch.tensor([1, 2, 4]).mean(dtype=torch.float32),
    torch.tensor([1, 2]).sum(dtype=torch.float64),
)
print(
    "true_divide/floor_divide:",
    torch.true_divide(torch.tensor([5]), 2),
    torch.floor_divide(torch.tensor([-5]), 2),
)
print(
    "div rounding_mode:",
    torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"),
    torch.div(torch.tensor([-7, 7]), 2, rounding_mode="floor"),
)
print(
    "exp2/log2/log10/log1p/expm1:",
    torch.exp2(torch.tensor(3.0)),
    torch.log2(torch.tensor(8.0)),
    torch.log10(torch.tensor(1000.0)),
    torch.log1p(torch.tensor(1e-8)),
    torch.expm1(torch.tensor(1e-8)),
)
print(
    "hypot/atan2:",
    torch.hypot(torch.tensor(3.0), torch.tensor(4.0)),
    torch.atan2(torch.tensor(1.0), torch.tensor(-1.0)),
)
print(
    "deg2rad/rad2deg:",
    torch.deg2rad(torch.tensor(180.0)),
    torch.rad2deg(torch.tensor(3.141592653589793)),
)
print(
    "erf/erfinv/lgamma/digamma:",
    torch.erf(torch.tensor(0.5)),
    torch.erfinv(torch.tensor(0.5)),
    torch.lgamma(torch.tensor(4.5)),
    torch.digamma(torch.tensor(1.0)),
)
print(
    "sinc/xlogy:",
    torch.sinc(torch.tensor([0.0, 0.5])),
    torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])),
)
print(
    "frac/sgn/signbit:",
    torch.frac(torch.tensor([-1.25, 2.5])),
    torch.sgn(torch.tensor([-2.0, 0.0])),
    torch.signbit(torch.tensor([-0.0, 1.0])),
)
print(
    "copysign/heaviside:",
    torch.copysign(torch.tensor([1.0, 2.0]), torch.tensor([-1.0, 1.0])),
    torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)),
)
print(
    "gcd/lcm:",
    torch.gcd(torch.tensor([12, 18]), torch.tensor([8, 27])),
    torch.lcm(torch.tensor([4]), torch.tensor([6])),
)
print(
    "clamp with tensors:",
    torch.clamp(
        torch.arange(5.0), min=torch.tensor([1.0, 1.0, 1.0, 1.0, 1.0]), max=torch.tensor(3.0)
    ),
)
print("matrix_power:", torch.linalg.matrix_power(torch.tensor([[1.0, 1.0], [0.0, 1.0]]), 3))
print(
    "baddbmm/addmm:", torch.addmm(torch.ones(2, 2), torch.eye(2), torch.eye(2), beta=0.5, alpha=2.0)
)
print("vander:", torch.vander(torch.tensor([1, 2, 3]), N=3))
print(
    "tril_indices:", torch.tril_indices(3, 3), "triu_indices offset 1:", torch.triu_indices(3, 3, 1)
)
try:
    torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1]))
except AssertionError as e:
    print("assert_close error:\n", e)
try:
    print("int tensor + float numpy:", torch.tensor([1, 2]) + torch.tensor([1.0, 2.0]).numpy())
except Exception as e:
    print("mixed numpy add:", type(e).__name__, e)
print("tensor + numpy array:", torch.tensor([1.0, 2.0]) + np.array([1.0, 1.0], dtype=np.float32))

# --- tensor attributes summary (GfG "tensor attributes": dtype, device, layout) ---
print("attributes:", a.dtype, a.device, a.layout, a.requires_grad, a.is_leaf)
