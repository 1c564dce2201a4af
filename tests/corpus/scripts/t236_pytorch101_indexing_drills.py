"""pytorch101-style integer/boolean indexing drills, gather/scatter, sort/topk, counting"""

import torch

torch.manual_seed(0)
a = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]])
idx = [0, 0, 2, 1, 1]
print("a[idx]\n", a[idx])
print("a[:, [2, 0, 1]]\n", a[:, [2, 0, 1]])
rows = torch.tensor([0, 1, 2])
cols = torch.tensor([0, 1, 2])
print("diagonal via int arrays:", a[rows, cols], a[[0, 1, 2], [0, 1, 2]])
print("row per col:", a[torch.arange(4), torch.tensor([1, 2, 1, 0])])
a[torch.arange(4), torch.tensor([1, 2, 1, 0])] += 10
print(a)

mask = a > 6
print(mask, mask.dtype)
print("a[mask]:", a[mask], "count", mask.sum(), mask.sum().dtype)
a[a <= 6] = 0
try:
    a[a > 6] = torch.tensor([1, 2])
except RuntimeError as e:
    print("RuntimeError:", e)
print(a)
print("any/all:", mask.any(), mask.all(), mask.any(dim=1), mask.all(dim=0))


def shuffle_cols(x):
    return x[:, [0, 0, 2, 1]]


def reverse_rows(x):
    return x[torch.arange(x.shape[0] - 1, -1, -1)]


def take_one_elem_per_col(x):
    return x[[1, 0, 3], [0, 1, 2]]


def make_one_hot(xs):
    y = torch.zeros(len(xs), max(xs) + 1)
    y[range(len(xs)), xs] = 1
    return y


x = torch.arange(12).view(4, 3)
print(shuffle_cols(x))
print(reverse_rows(x))
print(take_one_elem_per_col(x))
print(make_one_hot([1, 4, 3, 2]))
print(torch.nn.functional.one_hot(torch.tensor([1, 4, 3, 2])))
print(torch.nn.functional.one_hot(torch.tensor([0, 2]), num_classes=4).dtype)


def sum_positive_entries(x):
    return x[x > 0].sum().item()


print(sum_positive_entries(torch.tensor([[-1, 2, 0], [3, -4, 5]])))


def count_negative_entries(x):
    return int((x < 0).sum())


print(count_negative_entries(torch.tensor([[-1, 2, 0], [3, -4, 5]])))

# gather / scatter ----------------------------------------------------------------
scores = torch.randn(5, 4)
labels = torch.tensor([0, 3, 1, 1, 2])
print(scores)
print("gather:", scores.gather(1, labels.view(-1, 1)).squeeze(1))
print("same:", scores[torch.arange(5), labels])
print("gather dim 0:", torch.gather(scores, 0, torch.tensor([[0, 1, 2, 3], [4, 4, 4, 4]])))
z = torch.zeros(5, 4)
print("scatter:", z.scatter(1, labels.unsqueeze(1), 1.0))
print("scatter_add:", torch.zeros(3).scatter_add(0, torch.tensor([0, 1, 0, 2, 0]), torch.ones(5)))
print(
    "scatter_reduce amax:",
    torch.zeros(3).scatter_reduce(
        0,
        torch.tensor([0, 1, 0, 2, 0]),
        torch.tensor([5.0, 1.0, 7.0, 2.0, 3.0]),
        reduce="amax",
        include_self=False,
    ),
)
print("index_add_:", torch.zeros(3, 2).index_add_(0, torch.tensor([0, 2, 0]), torch.ones(3, 2)))
print("index_select:", torch.index_select(scores, 1, torch.tensor([3, 0])))
print("index_fill:", torch.arange(6.0).view(2, 3).index_fill(1, torch.tensor([0, 2]), -1))
print("masked_fill:", scores.masked_fill(scores < 0, 0.0))
print("masked_select:", torch.masked_select(scores, scores > 1))
print("take:", torch.take(scores, torch.tensor([0, 5, 19])))
print("take_along_dim:", torch.take_along_dim(scores, scores.argmax(dim=1, keepdim=True), dim=1))
try:
    scores.gather(1, torch.tensor([[4], [0], [0], [0], [0]]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    scores[torch.tensor([5])]
except IndexError as e:
    print("IndexError:", e)
try:
    scores[[True, False]]
except IndexError as e:
    print("IndexError:", e)

# where / nonzero ----------------------------------------------------------------
x = torch.tensor([[3.0, -1.0, 0.0], [-2.0, 5.0, -6.0]])
print(torch.where(x > 0, x, torch.zeros_like(x)))
print(torch.where(x > 0, x, -1.0))
print(torch.where(x > 0))
print(torch.nonzero(x))
print(torch.nonzero(x, as_tuple=True))
print(torch.argwhere(x < 0))
print(x.count_nonzero(), x.count_nonzero(dim=0))
print(torch.clamp(x, min=-1, max=2), x.clamp(min=0), x.clip(-0.5, 0.5))
print(torch.sign(x), x.abs(), torch.heaviside(x, torch.tensor(0.5)))

# sort / topk / argmax ----------------------------------------------------------------
v = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
print(torch.sort(v))
print(torch.sort(v, descending=True, stable=True))
print(v.argsort(), v.argsort(descending=True, stable=True))
print(v.topk(3))
print(v.float().topk(3, largest=False, sorted=True))
print(torch.kthvalue(v, 4))
print(v.max(), v.argmax(), v.min(), v.argmin())
m = torch.randint(0, 10, (3, 5))
print(m)
print(m.max(dim=1))
print(m.max(dim=0, keepdim=True).values, m.argmax(1), m.argmin(0))
print(m.sort(dim=0).values, m.topk(2, dim=1).indices)
print(torch.amax(m, dim=(0, 1)), torch.aminmax(m))
print(m.median(), m.median(dim=1), m.float().quantile(0.25), m.mode(dim=1))
print(torch.msort(m))

# counting ---------------------------------------------------------------------
y = torch.tensor([2, 0, 2, 3, 3, 3, 1, 0, 2])
try:
    torch.bincount(y.float())
except (RuntimeError, NotImplementedError, TypeError) as e:
    print(type(e).__name__, e)
try:
    print(torch.histc(y, bins=4))
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
print("bincount", torch.bincount(y), torch.bincount(y, minlength=6))
print("weighted bincount", torch.bincount(y, weights=torch.linspace(0, 1, 9)))
print("unique", torch.unique(y), torch.unique(y, return_counts=True))
u, inv = torch.unique(y, sorted=True, return_inverse=True)
print(u, inv)
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True))
print("histc", torch.histc(torch.tensor([1.0, 2, 1, 0.5, 3.9, 4.0]), bins=4, min=0, max=4))
h = torch.histogram(torch.tensor([1.0, 2, 1, 0.5, 3.9, 4.0]), bins=4)
print(h.hist, h.bin_edges)
print("cumsum", y.cumsum(0), "cumprod", torch.tensor([1.0, 2, 3, 4]).cumprod(0))
print("cummax", torch.tensor([1, 3, 2, 5, 4]).cummax(0))
print(
    "diff",
    torch.diff(y),
    "searchsorted",
    torch.searchsorted(torch.tensor([0, 2, 4, 6]), torch.tensor([1, 4, 7])),
)
print(
    "bucketize", torch.bucketize(torch.tensor([0.1, 2.5, 5.0]), torch.tensor([1.0, 2.0, 3.0, 4.0]))
)
print("isin", torch.isin(y, torch.tensor([0, 3])))

# tri / flip / roll / repeat -----------------------------------------------------
M = torch.arange(1, 17).view(4, 4)
print(
    torch.tril(M),
    torch.triu(M, diagonal=1),
    M.diag(),
    torch.diag(torch.tensor([1, 2])),
    M.diagonal(offset=-1),
)
print(M.flip(0), M.fliplr(), torch.rot90(M), M.roll(1, dims=1), M.roll(shifts=(1, 1), dims=(0, 1)))
print(torch.tril_indices(3, 3), torch.triu_indices(3, 3, 1))
print(
    torch.tensor([1, 2]).repeat(2, 3),
    torch.tensor([1, 2]).repeat_interleave(3),
    torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), torch.tensor([1, 2]), dim=0),
)
print(torch.tensor([[1], [2]]).expand(2, 3), torch.tensor([[1], [2]]).expand(-1, 4).stride())
print(torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij"))
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])))
print(torch.combinations(torch.tensor([1, 2, 3]), r=2))

# --- more drills: in-place indexed writes, unravel, unique rows, casting edge cases ---
t = torch.zeros(5)
t.index_put_((torch.tensor([0, 2, 0]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(t, torch.zeros(5).index_put_((torch.tensor([1, 1]),), torch.tensor([4.0, 5.0])))
print(
    torch.zeros(2, 3).index_copy_(1, torch.tensor([2, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
)
p = torch.zeros(2, 3)
p.put_(torch.tensor([0, 4]), torch.tensor([9.0, 8.0]))
print(p)
print(
    torch.zeros(2, 3).masked_scatter_(
        torch.tensor([[True, False, True], [False, True, False]]), torch.arange(1.0, 7.0)
    )
)
try:  # the older spelling of scatter_add_, still in many course notebooks
    print(
        torch.zeros(3, 3).scatter_(
            0, torch.tensor([[0, 1, 2]]), torch.tensor([[5.0, 6.0, 7.0]]), reduce="add"
        )
    )
    print(torch.ones(2, 2).scatter_(1, torch.tensor([[0, 0], [1, 1]]), 3.0, reduce="multiply"))
except Exception as e:
    print("scatter_ with reduce failed:", type(e).__name__, e)
print(torch.ones(2, 4).scatter_(1, torch.tensor([[1], [3]]), 0.0))
print(torch.unravel_index(torch.tensor([5, 11]), (3, 4)))
flat = torch.tensor([[3, 8], [7, 1]]).argmax()
print(flat, divmod(flat.item(), 2), torch.unravel_index(flat, (2, 2)))
rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 0], [3, 4]])
print(torch.unique(rows, dim=0), torch.unique(rows, dim=0, return_counts=True, return_inverse=True))
print(
    torch.tensor([2.7, -2.7, float("nan")]).long() if False else torch.tensor([2.7, -2.7]).long(),
    torch.tensor([300.7]).to(torch.uint8),
    torch.tensor([-1]).to(torch.uint8),
    torch.tensor([1, 0, 2]).bool(),
    torch.tensor([True]).float(),
)
print(
    torch.tensor([1.5]).char(),
    torch.tensor([3.9]).byte(),
    torch.tensor([3.9]).short(),
    torch.tensor([1 / 3]).half(),
    torch.tensor([1 / 3]).half().float().item(),
)
try:
    torch.tensor([2**63])
except (RuntimeError, ValueError, OverflowError) as e:
    print(type(e).__name__, e)
print(
    torch.iinfo(torch.int32).max,
    torch.finfo(torch.float16).eps,
    torch.finfo(torch.float32).max,
    torch.finfo().tiny,
)
print(
    torch.tensor([True, False, True]).cumsum(0),
    torch.tensor([200, 100], dtype=torch.uint8).sum(),
    torch.tensor([200, 100], dtype=torch.uint8).sum().dtype,
    torch.tensor([1, 2], dtype=torch.int8).prod().dtype,
)
v = torch.tensor([3.0, float("nan"), 1.0, 2.0])
print(
    v.sort(),
    v.max(),
    v.argmax(),
    torch.nanquantile(v, 0.5),
    v.nanmedian(),
    torch.sort(v, descending=True).values,
)
print(
    torch.tensor([1, 3, 3, 2]).argmax(),
    torch.tensor([[5, 5], [1, 5]]).argmax(dim=1),
    torch.tensor([2.0, 2.0, 1.0]).argmin(),
    torch.tensor([4, 4, 1, 1]).mode(),
    torch.tensor([1.0, 2.0, 3.0, 4.0]).median(),
)
print(
    torch.cov(torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 5.0, 9.0]])),
    torch.corrcoef(torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 5.0, 9.0]])),
)
x = torch.tensor([0.2, 0.5, 0.9])
print(
    torch.lerp(x, torch.ones(3), 0.5),
    torch.addcmul(x, x, x, value=2),
    torch.addcdiv(x, x, x + 1),
    torch.hypot(x, x),
    torch.atan2(x, -x),
    torch.logaddexp(x, x),
    torch.sinc(x),
    torch.erfinv(x),
    torch.xlogy(x, x),
    torch.logit(x),
    torch.expm1(x),
    torch.log1p(x),
    torch.rsqrt(x),
    torch.reciprocal(x),
    torch.square(x),
    torch.erf(x),
    torch.sigmoid(x),
    torch.special.expit(x),
    torch.deg2rad(x),
    torch.float_power(x, 2),
)
print(
    torch.clamp(
        torch.arange(6.0), min=torch.tensor([1.0, 1.0, 1.0, 4.0, 4.0, 4.0]), max=torch.tensor(3.5)
    ),
    torch.where(torch.tensor([True, False]), 1.0, 0),
    torch.where(torch.tensor([True, False]), 1, 0).dtype,
)
print(
    torch.flatten(torch.tensor(3.0)),
    torch.rot90(torch.arange(4).view(2, 2), -1),
    torch.nn.functional.pad(torch.arange(6.0).view(2, 3), (-1, 1)),
    torch.tensor([[1, 2], [3, 4]]).apply_(lambda v: v * 10)
    if False
    else torch.tensor([[1, 2], [3, 4]]).clone().apply_(lambda v: v * 10),
)
print(
    torch.tensor([[1, 2], [3, 4]]).new_empty(3).shape,
    torch.empty_like(torch.ones(2, dtype=torch.int16)).dtype,
    torch.zeros(2, 0).sum(1),
    torch.zeros(0).max(0) if False else torch.ones(0).sum(),
    torch.tensor([]).mean(),
)
try:
    torch.zeros(0).max()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(2, 3)[:, 3]
except IndexError as e:
    print("IndexError:", e)
try:
    torch.zeros(2, 3)[0, 0, 0]
except IndexError as e:
    print("IndexError:", e)
try:
    torch.arange(6).view(2, 3)[torch.tensor([[True, False, True]])]
except IndexError as e:
    print("IndexError:", e)
try:
    torch.zeros(3).index_select(0, torch.tensor([0.0]))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    a[[0, 1], [0, 1, 2]]  # row and column index lists of different lengths
except IndexError as e:
    print("IndexError:", e)
try:
    torch.zeros(3).index_fill_(0, torch.tensor([5]), 1.0)
except IndexError as e:
    print("IndexError:", e)
try:
    torch.tensor([1, 2, 3])[torch.tensor([1.0])]
except IndexError as e:
    print("IndexError:", e)
z = torch.arange(10)
print(
    z[z % 2 == 0],
    z[[-1, -2]],
    z[torch.tensor([[0, 1], [2, 3]])],
    z[None, 2:5],
    z[..., None].shape,
    z[torch.tensor(3)],
    z[torch.tensor([True] * 10)].shape,
)
b = torch.arange(24).view(2, 3, 4)
print(
    b[:, [0, 2]][:, :, [1, 3]],
    b[[0, 1], :, [1, 2]],
    b[:, [0, 2], [1, 3]].shape,
    b[[1], [2]].shape,
    b[0, [0, 1], 1:3],
    b[..., [0]].shape,
)
bi = torch.tensor([[0, 1], [1, 0]])
print(b[bi].shape, b[:, bi].shape, b[:, :, bi].shape, b[bi, :, bi].shape)
