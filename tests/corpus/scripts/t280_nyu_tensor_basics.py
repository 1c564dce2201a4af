"""NYU DL (Canziani) style "tensor basics" notebook: creation, dtypes, indexing, broadcasting, reshaping."""

import numpy as np
import torch

torch.manual_seed(0)

print("== creation ==")
t = torch.Tensor(2, 3)
print(type(t), t.shape, t.dtype)
t.zero_()
print(t)
a = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(a, a.dtype, a.dim(), a.numel(), a.size(1))
b = torch.tensor([1.5, 2.5])
print(b, b.dtype)
c = torch.tensor([True, False, True])
print(c, c.dtype)
print(torch.zeros(2, 2, dtype=torch.int64))
print(torch.ones(3, dtype=torch.float64))
print(torch.full((2, 3), 7.0))
print(torch.full((2, 2), 3))
print(torch.eye(3, 4))
print(torch.arange(5), torch.arange(1, 10, 3), torch.arange(0, 1, 0.25))
print(torch.linspace(-1, 1, 5))
print(torch.logspace(0, 3, 4))
print(torch.empty(0, 3).shape)
r = torch.rand(2, 3)
print(r)
n = torch.randn(2, 3)
print(n)
print(torch.randint(0, 10, (3, 4)))
print(torch.randperm(8))
print(torch.zeros_like(n), torch.ones_like(a))
print(torch.rand_like(r))
print(torch.randn_like(r, dtype=torch.float64))

print("== dtypes and conversions ==")
x = torch.arange(6)
print(x.dtype, x.float().dtype, x.double().dtype, x.to(torch.int16).dtype, x.half().dtype)
print(x.float() / 4, x // 4, x / 4, x % 4)
print(x.type(torch.FloatTensor))
print(x.type())
print(torch.tensor([1, 2]) + torch.tensor([0.5, 0.5]))
print(torch.tensor([1, 2], dtype=torch.uint8) + 255)
print((torch.tensor([1, 2]) * 1.5).dtype, (torch.tensor([1, 2]) + True).dtype)
print(torch.get_default_dtype())
print(torch.is_tensor(x), torch.is_floating_point(x), torch.is_floating_point(x.float()))
print(
    torch.tensor(3.7).item(),
    torch.tensor([4]).item(),
    int(torch.tensor(2.9)),
    float(torch.tensor(2)),
)

print("== numpy bridge ==")
arr = np.arange(6, dtype=np.float32).reshape(2, 3)
ta = torch.from_numpy(arr)
arr[0, 0] = 100
print(ta)
tb = torch.tensor(arr)
arr[0, 1] = -1
print(tb)
print(ta.numpy().dtype, type(ta.numpy()))
print(torch.as_tensor([1, 2, 3], dtype=torch.float32))
print(torch.from_numpy(np.array([1, 2], dtype=np.int32)).dtype)

print("== indexing ==")
m = torch.arange(20).reshape(4, 5)
print(m)
print(m[1], m[:, 1], m[1:3, ::2], m[-1, -2], m[..., 0])
print(m[[0, 2]], m[[0, 2], [1, 3]])
print(m[m > 12])
print(m[:, None].shape, m[None, ..., None].shape)
m2 = m.clone()
m2[m2 % 3 == 0] = -1
print(m2)
m2[0] = torch.tensor([9, 9, 9, 9, 9])
m2[:, -1] = 0
print(m2)
try:
    m[4]
except IndexError as e:
    print("IndexError:", e)
print(torch.nonzero(m[0] > 1), (m[0] > 1).nonzero(as_tuple=True))
print(torch.where(m > 10, m, torch.zeros_like(m)))
print(torch.masked_select(m, m < 4))
print(torch.gather(m, 1, torch.tensor([[0], [1], [2], [3]])))
print(torch.index_select(m, 0, torch.tensor([3, 0])))
s = torch.zeros(3, 5).scatter_(0, torch.tensor([[0, 1, 2, 0, 0]]), 1.0)
print(s)

print("== reshaping ==")
v = torch.arange(12)
print(v.view(3, 4), v.view(-1, 6).shape, v.reshape(2, 2, 3).shape)
vt = v.view(3, 4).t()
print(vt.is_contiguous(), vt.stride())
try:
    vt.view(12)
except RuntimeError as e:
    print("RuntimeError:", e)
print(vt.contiguous().view(12))
print(vt.reshape(12))
print(v.view(3, 4).permute(1, 0).shape, v.view(2, 3, 2).transpose(0, 2).shape)
print(v.view(1, 12, 1).squeeze().shape, v.unsqueeze(0).shape, v.view(3, 4).flatten())
print(v.view(2, 6).unbind(0))
print(torch.cat([v[:3], v[-3:]]), torch.stack([v[:3], v[-3:]], dim=1))
print(v.chunk(5), v.split([2, 10]))
print(v.view(3, 4).expand(2, 3, 4).shape, v[:2].repeat(3), v[:2].repeat_interleave(3))
print(torch.flip(v[:5], [0]), v.view(3, 4).roll(1, dims=1))
try:
    v.view(5, -1)
except RuntimeError as e:
    print("RuntimeError:", e)

print("== broadcasting and math ==")
p = torch.arange(3).view(3, 1).float()
q = torch.arange(4).float()
print(p + q, (p * q).sum(), (p - q).abs().max())
print(torch.broadcast_tensors(p, q)[1].shape)
try:
    torch.ones(2, 3) + torch.ones(3, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
w = torch.randn(3, 4)
print(w.sum(0), w.mean(1), w.std(), w.var(dim=0, unbiased=False), w.max(), w.argmax(), w.max(dim=1))
print(w.min(1).values, w.min(1).indices, w.median(), w.prod(1))
print(w.cumsum(1), w.clamp(-0.5, 0.5), w.sign(), w.round(decimals=2))
print(torch.tril(torch.ones(3, 3)), torch.triu(w, diagonal=1))
print(w.sort(dim=1), w.argsort(0), w.topk(2, dim=1))
print(torch.unique(torch.tensor([3, 1, 3, 2, 1]), return_counts=True))
print(torch.einsum("ij,kj->ik", w, w))
print(w @ w.T, torch.matmul(w, torch.ones(4)), torch.mm(w, w.t()).diag())
print(torch.allclose(w @ w.T, (w @ w.T).T), torch.equal(w, w.clone()))
print(
    torch.isnan(torch.tensor([1.0, float("nan")])), torch.isinf(torch.tensor([float("inf"), 1.0]))
)
print(torch.tensor([1.0, 0.0]) / 0)

print("== printing ==")
big = torch.arange(2000).float()
print(big)
print(torch.randn(12, 12))
torch.set_printoptions(precision=2)
print(torch.randn(3, 3))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1e-5, 1.0, 1e5]))
torch.set_printoptions(profile="default")
print(torch.tensor([1e-5, 1.0, 1e5]))
print(torch.tensor([123456789.0, 1.0]))
print(torch.tensor([1, -2, 300000]))
print(repr(torch.tensor(5)), str(torch.tensor([0.1, 0.2], dtype=torch.float64)))
print(torch.tensor([[]]), torch.zeros(2, 0))
print(torch.tensor([1.0, 2.0], requires_grad=True) * 2)

print("== exercises: more tensor functions ==")
torch.manual_seed(1)
e = torch.randn(4, 5)
print(
    e.amax(1), e.amin(0), e.aminmax(), torch.std_mean(e, dim=1), torch.var_mean(e, 0, correction=0)
)
print(e.mode(1), e.kthvalue(2, dim=1), torch.count_nonzero(e > 0, dim=0), e.norm(p=1, dim=1))
print(
    e.cummax(1).values[0],
    torch.logcumsumexp(e[0], 0),
    e.logsumexp(1),
    torch.diff(e[0]),
    torch.diff(e, n=2, dim=1).shape,
)
print(
    torch.histc(e, bins=4, min=-2, max=2),
    torch.bucketize(torch.tensor([-1.0, 0.2, 3.0]), torch.tensor([-0.5, 0.0, 0.5])),
)
print(
    torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([[3, 6], [0, 9]])),
    torch.searchsorted(torch.tensor([1, 3, 5, 7]), 5, right=True),
)
print(
    torch.kron(torch.eye(2), torch.ones(2, 2)),
    torch.block_diag(torch.ones(1, 2), 2 * torch.ones(2, 1)),
)
print(
    torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])),
    torch.combinations(torch.tensor([1, 2, 3]), r=2),
)
print(torch.tril_indices(3, 3), torch.triu_indices(3, 3, offset=1))
print(
    torch.take(e, torch.tensor([0, 7, 19])),
    torch.take_along_dim(e, e.argmax(1, keepdim=True), dim=1).squeeze(),
)
print(
    torch.nan_to_num(
        torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]), nan=0.0, posinf=9.0
    )
)
print(
    torch.logical_and(e > 0, e < 1).sum(),
    torch.logical_or(e > 1, e < -1).any(),
    torch.logical_not(e > 0).all(),
    (e > 0).int().sum(1),
)
print(
    torch.rot90(torch.arange(6).view(2, 3)),
    torch.diag_embed(torch.tensor([1.0, 2.0])),
    torch.diag(torch.tensor([[1, 2], [3, 4]])),
)
print(
    e.narrow(1, 1, 2).shape,
    e.select(0, 2),
    torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape,
    e.swapaxes(0, 1).shape,
)
print(
    torch.atleast_2d(torch.tensor(1.0)),
    torch.column_stack([torch.arange(3), torch.arange(3, 6)]),
    torch.hstack([torch.zeros(2), torch.ones(1)]),
)
print(
    torch.vstack([torch.zeros(3), torch.ones(3)]),
    torch.dstack([torch.zeros(2, 2), torch.ones(2, 2)]).shape,
)
print(
    torch.tensor_split(torch.arange(7), 3),
    torch.hsplit(torch.arange(8).view(2, 4), 2)[1],
    torch.vsplit(torch.arange(8).view(4, 2), [1])[0],
)
print(
    torch.isclose(torch.tensor([1.0, 1.0001]), torch.tensor([1.0, 1.0])),
    torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)),
)
f = torch.tensor([-2.7, -0.5, 0.5, 1.5, 2.5])
print(
    f.frac(),
    f.trunc(),
    f.floor(),
    f.ceil(),
    f.round(),
    torch.fix(f),
    f.fmod(2),
    f.remainder(2),
    f.abs().sqrt().rsqrt(),
)
print(
    torch.lerp(torch.zeros(3), torch.ones(3), 0.25),
    torch.hypot(torch.tensor([3.0]), torch.tensor([4.0])),
    torch.logaddexp(torch.tensor([0.0]), torch.tensor([0.0])),
)
print(
    torch.erf(torch.tensor([0.5])),
    torch.erfinv(torch.tensor([0.5])),
    torch.lgamma(torch.tensor([4.5])),
    torch.digamma(torch.tensor([1.0])),
)
print(
    torch.special.expit(torch.tensor([0.0])),
    torch.special.logit(torch.tensor([0.25])),
    torch.special.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])),
    torch.special.entr(torch.tensor([0.5])),
)
g = torch.zeros(3, 4)
g.index_fill_(1, torch.tensor([0, 2]), -1.0)
g.masked_fill_(g == 0, 5.0)
print(g, g.index_copy(0, torch.tensor([2]), torch.ones(1, 4)))
g.put_(torch.tensor([0, 11]), torch.tensor([7.0, 8.0]))
print(g, g.element_size(), g.nbytes, g[1:].storage_offset(), g.t().stride(), g.is_contiguous())
print(
    torch.result_type(torch.tensor([1]), 1.0),
    torch.promote_types(torch.int32, torch.float16),
    torch.can_cast(torch.float32, torch.int32),
)
print(
    torch.tensor([1, 2, 3]).tolist(),
    torch.tensor(3.5).tolist(),
    torch.numel(e),
    e.new_zeros(2),
    e.new_full((2,), 3.0),
    e.new_tensor([1, 2]),
)
print(
    torch.clamp(torch.arange(6), min=2, max=4),
    torch.arange(6).clamp_max(3),
    torch.arange(6.0).clamp_min_(2.5),
)
print(
    torch.outer(torch.arange(3), torch.arange(2)),
    torch.inner(torch.ones(3), torch.arange(3.0)),
    torch.dot(torch.ones(3), torch.ones(3)),
    torch.cross(torch.tensor([1.0, 0, 0]), torch.tensor([0.0, 1, 0]), dim=0),
)
print(
    torch.bitwise_and(torch.tensor([12]), torch.tensor([10])),
    torch.tensor([5]) << 1,
    torch.tensor([True]) ^ torch.tensor([True]),
)
print(
    torch.flatten(torch.zeros(2, 3, 4), start_dim=1).shape,
    torch.unflatten(torch.arange(6), 0, (2, 3)),
    torch.ravel(torch.ones(2, 2)),
)
print(
    torch.msort(torch.tensor([3, 1, 2])),
    torch.sort(torch.tensor([3, 1, 2, 1]), stable=True, descending=True),
    torch.argsort(torch.tensor([2, 1, 2]), stable=True),
)
print(
    torch.tensor([[1, 2], [3, 4]]).sum(dtype=torch.float64),
    torch.tensor([1, 2, 3]).float().mean(),
    torch.tensor([1, 2, 3]).prod(),
)
try:
    torch.tensor([1, 2, 3]).mean()
except RuntimeError as ex:
    print("RuntimeError:", ex)
try:
    torch.zeros(2, 3) @ torch.zeros(2, 3)
except RuntimeError as ex:
    print("RuntimeError:", ex)
try:
    torch.cat([torch.zeros(2, 3), torch.zeros(3, 2)])
except RuntimeError as ex:
    print("RuntimeError:", ex)
try:
    torch.stack([torch.zeros(2), torch.zeros(3)])
except RuntimeError as ex:
    print("RuntimeError:", ex)
try:
    torch.zeros(2, 3).permute(0, 0)
except RuntimeError as ex:
    print("RuntimeError:", ex)
try:
    torch.arange(6).view(2, 3)[:, 3]
except IndexError as ex:
    print("IndexError:", ex)
try:
    torch.zeros(3).expand(2, 4)
except RuntimeError as ex:
    print("RuntimeError:", ex)
try:
    torch.tensor([[1, 2], [3]])
except ValueError as ex:
    print("ValueError:", ex)

print("== random numbers ==")
torch.manual_seed(2024)
print(torch.initial_seed())
state = torch.get_rng_state()
a1 = torch.rand(3)
torch.set_rng_state(state)
a2 = torch.rand(3)
print(torch.equal(a1, a2), state.dtype, state.shape)
print(
    torch.bernoulli(torch.full((6,), 0.3)),
    torch.normal(torch.zeros(3), torch.ones(3) * 2),
    torch.normal(1.0, 0.5, size=(2,)),
)
print(
    torch.poisson(torch.tensor([1.0, 5.0, 10.0])),
    torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 5, replacement=True),
    torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 3),
)
print(
    torch.empty(4).uniform_(-1, 1),
    torch.empty(3).exponential_(2.0),
    torch.empty(3).normal_(5, 0.1),
    torch.empty(3).geometric_(0.5),
)
print(
    torch.empty(5, dtype=torch.long).random_(0, 10),
    torch.empty(3).cauchy_(),
    torch.empty(3).log_normal_(0, 0.25),
    torch.randint_like(torch.zeros(4), 3, 8),
)
gen = torch.Generator().manual_seed(5)
print(
    torch.rand(2, generator=gen),
    torch.randn(2, generator=gen),
    torch.randperm(5, generator=gen),
    torch.randint(10, (3,), generator=gen),
)
print(
    gen.initial_seed(),
    torch.rand(2, dtype=torch.float64),
    torch.randn(2, 2).dtype,
    torch.randint(0, 3, (2,), dtype=torch.int32),
)
idx = torch.randperm(10)[:4]
print(idx, torch.arange(10)[idx])
sh = torch.arange(10)
print(sh[torch.randperm(sh.numel())])
torch.manual_seed(0)
print(torch.rand(1).item(), torch.randn(1).item(), torch.randint(0, 100, (1,)).item())
torch.save({"t": torch.arange(3), "rng": torch.get_rng_state()}, "basics.pt")
back = torch.load("basics.pt")
print(back["t"], back["rng"].shape, torch.equal(back["rng"], torch.get_rng_state()))
print(
    torch.tensor(np.float64(2.5)).dtype,
    torch.tensor(np.int32(3)).dtype,
    torch.tensor([np.float32(1.5)]).dtype,
    torch.as_tensor(np.arange(3)).dtype,
)
print(
    torch.tensor(np.array([1.5, 2.5])) * torch.tensor([2.0, 2.0], dtype=torch.float64),
    np.asarray(torch.ones(2)).dtype,
)
