"""Every differentiable op's gradient against central finite differences, in float64."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import autoviz

F64 = autoviz.float64
EPS = 1e-6
FEW = settings(max_examples=10, deadline=None)


# -- the check ---------------------------------------------------------------------------------
def _value(fn, arrays, weights) -> float:
    with autoviz.no_grad():
        out = fn(*[autoviz.tensor(a, dtype=F64) for a in arrays])
    return float(np.sum(out.numpy() * weights))


def numeric_grads(fn, arrays, weights) -> list:
    """d sum(fn(*arrays) * weights) / d arrays, by central differences."""
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            shifted = [x.copy() for x in arrays]
            shifted[k][idx] = a[idx] + EPS
            up = _value(fn, shifted, weights)
            shifted[k][idx] = a[idx] - EPS
            down = _value(fn, shifted, weights)
            g[idx] = (up - down) / (2 * EPS)
        grads.append(g)
    return grads


def gradcheck(fn, *arrays, expect_shape=None):
    """Backward through `fn` on float64 leaves equals the finite-difference gradient."""
    arrays = [np.array(a, dtype=np.float64) for a in arrays]
    leaves = [autoviz.tensor(a, dtype=F64, requires_grad=True) for a in arrays]
    out = fn(*leaves)
    assert out.dtype == F64
    assert out.grad_fn is not None and out.requires_grad and not out.is_leaf
    if expect_shape is not None:
        assert tuple(out.shape) == tuple(expect_shape)
    # Uneven weights on the outputs, so a gradient sent to the wrong place shows; fixed by shape.
    weights = np.random.default_rng([7, *out.shape]).uniform(-1.5, 1.5, size=tuple(out.shape))
    (out * autoviz.tensor(weights, dtype=F64)).sum().backward()
    for leaf, want in zip(leaves, numeric_grads(fn, arrays, weights), strict=True):
        assert leaf.grad is not None and leaf.grad.dtype == F64
        assert tuple(leaf.grad.shape) == want.shape
        np.testing.assert_allclose(leaf.grad.numpy(), want, rtol=1e-5, atol=1e-6)


# -- value strategies --------------------------------------------------------------------------
def floats(lo=-2.0, hi=2.0):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def away_from_zero(lo=0.1, hi=2.0):
    """Values with |x| >= lo: clear of the kinks of abs and relu and the pole of 1/x."""
    return st.one_of(floats(lo, hi), floats(-hi, -lo))


def arrays(shape, elements=None):
    return hnp.arrays(np.float64, shape, elements=floats() if elements is None else elements)


@st.composite
def distinct(draw, shape):
    """An array whose values all differ by at least 0.4, so max and min have no ties."""
    n = int(np.prod(shape))
    order = draw(st.permutations(range(n)))
    jitter = draw(arrays((n,), floats(0.0, 0.1)))
    return (np.array(order, dtype=np.float64) * 0.5 - n / 4 + jitter).reshape(shape)


SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)
SHAPES_3D = hnp.array_shapes(min_dims=3, max_dims=3, min_side=1, max_side=3)


# -- binary ops with broadcasting --------------------------------------------------------------
BINARY = {
    "a + b": (lambda a, b: a + b, floats(), floats()),
    "a - b": (lambda a, b: a - b, floats(), floats()),
    "a * b": (lambda a, b: a * b, floats(), floats()),
    "a / b": (lambda a, b: a / b, floats(), away_from_zero(0.5)),
    "a ** b": (lambda a, b: a**b, floats(0.5, 2.0), floats()),
    "torch.add": (autoviz.add, floats(), floats()),
    "torch.sub": (autoviz.sub, floats(), floats()),
    "torch.mul": (autoviz.mul, floats(), floats()),
    "torch.div": (autoviz.div, floats(), away_from_zero(0.5)),
    "torch.pow": (autoviz.pow, floats(0.5, 2.0), floats()),
    "torch.maximum": (autoviz.maximum, floats(0.6, 2.0), floats(-2.0, 0.4)),
    "torch.minimum": (autoviz.minimum, floats(0.6, 2.0), floats(-2.0, 0.4)),
    "a % b": (lambda a, b: a % b, floats(0.1, 0.9), floats(1.1, 2.0)),
    "torch.fmod": (autoviz.fmod, floats(-0.9, -0.1), floats(1.1, 2.0)),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@FEW
@given(data=st.data())
def test_binary_op_with_broadcast_shapes(name, data):
    """Each binary op, on every pair of mutually broadcastable shapes, sums its gradient back."""
    fn, left, right = BINARY[name]
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
    ordered = ("torch.maximum", "torch.minimum", "a % b", "torch.fmod")  # their ranges differ
    if data.draw(st.booleans()) and name not in ordered:
        fn, left, right = (lambda f: lambda a, b: f(b, a))(fn), right, left  # swap the roles
    a = data.draw(arrays(shapes.input_shapes[0], left))
    b = data.draw(arrays(shapes.input_shapes[1], right))
    gradcheck(fn, a, b, expect_shape=shapes.result_shape)


# -- a Python number on either side, and unary minus --------------------------------------------
SCALAR = {
    "x + 2.5": (lambda x: x + 2.5, floats()),
    "2.5 + x": (lambda x: 2.5 + x, floats()),
    "x + 2": (lambda x: x + 2, floats()),
    "x - 3": (lambda x: x - 3, floats()),
    "3 - x": (lambda x: 3 - x, floats()),
    "0.5 - x": (lambda x: 0.5 - x, floats()),
    "x * -1.5": (lambda x: x * -1.5, floats()),
    "-1.5 * x": (lambda x: -1.5 * x, floats()),
    "2 * x": (lambda x: 2 * x, floats()),
    "x / 0.7": (lambda x: x / 0.7, floats()),
    "x / 4": (lambda x: x / 4, floats()),
    "0.7 / x": (lambda x: 0.7 / x, away_from_zero(0.3)),
    "1 / x": (lambda x: 1 / x, away_from_zero(0.3)),
    "x ** 2": (lambda x: x**2, floats()),
    "x ** 3": (lambda x: x**3, floats()),
    "x ** 0": (lambda x: x**0, floats()),
    "x ** 1": (lambda x: x**1, floats()),
    "x ** -1": (lambda x: x**-1, away_from_zero(0.3)),
    "x ** 0.5": (lambda x: x**0.5, floats(0.1, 2.0)),
    "x ** -1.5": (lambda x: x**-1.5, floats(0.1, 2.0)),
    "2.5 ** x": (lambda x: 2.5**x, floats()),
    "2 ** x": (lambda x: 2**x, floats()),
    "torch.pow(x, 3)": (lambda x: autoviz.pow(x, 3), floats()),
    "torch.pow(2.0, x)": (lambda x: autoviz.pow(2.0, x), floats()),
    "x.pow(2)": (lambda x: x.pow(2), floats()),
    "-x": (lambda x: -x, floats()),
    "x.neg()": (lambda x: x.neg(), floats()),
    "torch.neg(x)": (lambda x: autoviz.neg(x), floats()),
}


@pytest.mark.parametrize("name", sorted(SCALAR))
@FEW
@given(data=st.data())
def test_op_with_a_python_number(name, data):
    """A Python number on either side of + - * / ** (and unary minus) differentiates right."""
    fn, elements = SCALAR[name]
    x = data.draw(arrays(data.draw(SHAPES), elements))
    gradcheck(fn, x, expect_shape=x.shape)


# -- elementwise functions ---------------------------------------------------------------------
def _clamp_elements(lo=-0.5, hi=0.5):
    """Values at least 0.05 away from the clamp bounds -0.5 and 0.5."""
    return st.one_of(floats(-2.0, lo - 0.05), floats(lo + 0.05, hi - 0.05), floats(hi + 0.05, 2.0))


UNARY = {
    "exp": (autoviz.exp, lambda x: x.exp(), floats()),
    "log": (autoviz.log, lambda x: x.log(), floats(0.1, 3.0)),
    "sqrt": (autoviz.sqrt, lambda x: x.sqrt(), floats(0.1, 3.0)),
    "abs": (autoviz.abs, lambda x: x.abs(), away_from_zero()),
    "sin": (autoviz.sin, lambda x: x.sin(), floats(-4.0, 4.0)),
    "cos": (autoviz.cos, lambda x: x.cos(), floats(-4.0, 4.0)),
    "tanh": (autoviz.tanh, lambda x: x.tanh(), floats(-3.0, 3.0)),
    "sigmoid": (autoviz.sigmoid, lambda x: x.sigmoid(), floats(-4.0, 4.0)),
    "relu": (autoviz.relu, lambda x: x.relu(), away_from_zero()),
    "clamp": (
        lambda x: autoviz.clamp(x, -0.5, 0.5),
        lambda x: x.clamp(min=-0.5, max=0.5),
        _clamp_elements(),
    ),
    "clamp_min": (
        lambda x: autoviz.clamp(x, min=-0.5),
        lambda x: x.clamp_min(-0.5),
        _clamp_elements(),
    ),
    "clamp_max": (
        lambda x: autoviz.clamp(x, max=0.5),
        lambda x: x.clamp(max=0.5),
        _clamp_elements(),
    ),
    "clone": (autoviz.clone, lambda x: x.clone(), floats()),
    "log10": (autoviz.log10, lambda x: x.log10(), floats(0.1, 3.0)),
    "log2": (autoviz.log2, lambda x: x.log2(), floats(0.1, 3.0)),
    "log1p": (autoviz.log1p, lambda x: x.log1p(), floats(-0.5, 3.0)),
    "expm1": (autoviz.expm1, lambda x: x.expm1(), floats()),
    "exp2": (autoviz.exp2, lambda x: x.exp2(), floats()),
    "tan": (autoviz.tan, lambda x: x.tan(), floats(-1.2, 1.2)),
    "rsqrt": (autoviz.rsqrt, lambda x: x.rsqrt(), floats(0.1, 3.0)),
    "reciprocal": (autoviz.reciprocal, lambda x: x.reciprocal(), away_from_zero(0.3)),
    "square": (autoviz.square, lambda x: x.square(), floats()),
    "leaky_relu": (
        lambda x: autoviz.nn.functional.leaky_relu(x, 0.2),
        lambda x: autoviz.nn.LeakyReLU(0.2)(x),
        away_from_zero(),
    ),
}


@pytest.mark.parametrize("form", ["function", "method"])
@pytest.mark.parametrize("name", sorted(UNARY))
@FEW
@given(data=st.data())
def test_elementwise_function(name, form, data):
    """Each elementwise function, as `torch.f(x)` and as `x.f()`, away from its kinks."""
    function, method, elements = UNARY[name]
    x = data.draw(arrays(data.draw(SHAPES), elements))
    gradcheck(function if form == "function" else method, x, expect_shape=x.shape)


@FEW
@given(
    shapes=hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3), data=st.data()
)
def test_where_sends_each_element_to_the_side_it_came_from(shapes, data):
    """torch.where(cond, a, b) with cond, a and b all broadcast against each other."""
    cond_shape, a_shape, b_shape = shapes.input_shapes
    cond = autoviz.tensor(data.draw(hnp.arrays(np.bool_, cond_shape)))
    a = data.draw(arrays(a_shape))
    b = data.draw(arrays(b_shape))
    gradcheck(lambda a, b: autoviz.where(cond, a, b), a, b, expect_shape=shapes.result_shape)


# -- reductions ----------------------------------------------------------------------------------
REDUCTIONS = {
    "x.sum()": lambda x: x.sum(),
    "torch.sum(x)": lambda x: autoviz.sum(x),
    "x.sum(0)": lambda x: x.sum(0),
    "x.sum(-1)": lambda x: x.sum(-1),
    "x.sum(dim=1, keepdim=True)": lambda x: x.sum(dim=1, keepdim=True),
    "x.sum((0, 2))": lambda x: x.sum((0, 2)),
    "x.sum(dim=(0, -1), keepdim=True)": lambda x: x.sum(dim=(0, -1), keepdim=True),
    "torch.sum(x, 1)": lambda x: autoviz.sum(x, 1),
    "x.mean()": lambda x: x.mean(),
    "torch.mean(x)": lambda x: autoviz.mean(x),
    "x.mean(0)": lambda x: x.mean(0),
    "x.mean(-1, keepdim=True)": lambda x: x.mean(-1, keepdim=True),
    "x.mean((1, 2))": lambda x: x.mean((1, 2)),
    "torch.mean(x, dim=(0, 1), keepdim=True)": lambda x: autoviz.mean(x, dim=(0, 1), keepdim=True),
    "x.sum(axis=1, keepdims=True)": lambda x: x.sum(axis=1, keepdims=True),
    "x.mean(axis=(0, 2))": lambda x: x.mean(axis=(0, 2)),
    "x.var()": lambda x: x.var(),
    "x.var(1)": lambda x: x.var(1),
    "x.var(dim=(0, 2), unbiased=False, keepdim=True)": lambda x: x.var(
        dim=(0, 2), unbiased=False, keepdim=True
    ),
    "x.std(0, correction=0)": lambda x: x.std(0, correction=0),
    "torch.std(x, dim=-1, keepdim=True)": lambda x: autoviz.std(x, dim=-1, keepdim=True),
    "x.norm()": lambda x: x.norm(),
    "x.norm(p=1)": lambda x: x.norm(p=1),
    "x.norm(p=3, dim=1)": lambda x: x.norm(p=3, dim=1),
    "torch.norm(x, dim=(0, 2), keepdim=True)": lambda x: autoviz.norm(x, dim=(0, 2), keepdim=True),
    "x.cumsum(1)": lambda x: x.cumsum(1),
    "torch.cumsum(x, dim=-1)": lambda x: autoviz.cumsum(x, dim=-1),
    "x.prod()": lambda x: x.prod(),
    "x.prod(2, keepdim=True)": lambda x: x.prod(2, keepdim=True),
    "torch.logsumexp(x, 1)": lambda x: autoviz.logsumexp(x, 1),
    "x.logsumexp((0, 2), keepdim=True)": lambda x: x.logsumexp((0, 2), keepdim=True),
}


def _spread(shape):
    """Values at least 0.1 apart and away from zero (var of equal values, |x| at 0)."""
    return distinct(shape).map(lambda a: a + np.sign(a + 1e-9) * 0.3)


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@FEW
@given(data=st.data())
def test_sum_and_mean(name, data):
    """sum and mean over everything, one dim, negative dims, tuples of dims, with keepdim."""
    shape = data.draw(SHAPES_3D.filter(lambda s: min(s) >= 2))
    if "norm" in name or "std" in name:
        x = data.draw(_spread(shape))
    elif "prod" in name:  # a product of tiny values underflows: no finite difference to check
        x = data.draw(arrays(shape, away_from_zero()))
    else:
        x = data.draw(arrays(shape))
    gradcheck(REDUCTIONS[name], x)


EXTREMES = {
    "x.max()": lambda x: x.max(),
    "x.min()": lambda x: x.min(),
    "torch.max(x)": lambda x: autoviz.max(x),
    "torch.min(x)": lambda x: autoviz.min(x),
    "x.max(0).values": lambda x: x.max(0).values,
    "x.max(dim=-1)[0]": lambda x: x.max(dim=-1)[0],
    "x.max(1, keepdim=True).values": lambda x: x.max(1, keepdim=True).values,
    "x.min(1).values": lambda x: x.min(1).values,
    "x.min(dim=2, keepdim=True)[0]": lambda x: x.min(dim=2, keepdim=True)[0],
    "torch.max(x, 0).values": lambda x: autoviz.max(x, 0).values,
    "torch.min(x, -1).values": lambda x: autoviz.min(x, -1).values,
    "x.sort(1).values": lambda x: x.sort(1).values,
    "x.sort(descending=True)[0]": lambda x: x.sort(descending=True)[0],
    "x.topk(1, dim=0).values": lambda x: x.topk(1, dim=0).values,
    "torch.topk(x, 1, largest=False)[0]": lambda x: autoviz.topk(x, 1, largest=False)[0],
}


@pytest.mark.parametrize("name", sorted(EXTREMES))
@FEW
@given(data=st.data())
def test_max_and_min(name, data):
    """max and min, of everything and along a dim, on values without ties."""
    x = data.draw(distinct(data.draw(SHAPES_3D)))
    gradcheck(EXTREMES[name], x)


@FEW
@given(data=st.data())
def test_max_along_dim_returns_the_indices_of_the_maxima(data):
    """x.max(dim) gives (values, indices) like numpy's max and argmax."""
    a = data.draw(distinct(data.draw(SHAPES_3D)))
    values, indices = autoviz.tensor(a, dtype=F64).max(1)
    np.testing.assert_array_equal(values.numpy(), a.max(1))
    np.testing.assert_array_equal(indices.numpy(), a.argmax(1))
    assert indices.dtype == autoviz.int64


# -- moving elements around ---------------------------------------------------------------------
SHAPE_OPS = {
    # on a (2, 3, 4) tensor
    "x.split(3, dim=2)[1]": ((2, 3, 4), lambda x: x.split(3, dim=2)[1]),
    "x.split([1, 2], 1)[1]": ((2, 3, 4), lambda x: x.split([1, 2], 1)[1]),
    "x.chunk(2, 0)[0]": ((2, 3, 4), lambda x: x.chunk(2, 0)[0]),
    "torch.gather(x, 2, idx)": (
        (2, 3, 4),
        lambda x: autoviz.gather(x, 2, autoviz.tensor([[[0, 0], [3, 1], [2, 2]]] * 2)),
    ),
    "x.masked_fill(mask, 0.5)": (
        (2, 3, 4),
        lambda x: x.masked_fill(autoviz.arange(24).reshape(2, 3, 4) % 3 == 0, 0.5),
    ),
    "x.repeat(2, 1, 3)": ((2, 3, 4), lambda x: x.repeat(2, 1, 3)),
    "x.flip(1)": ((2, 3, 4), lambda x: x.flip(1)),
    "x.reshape(6, 4)": ((2, 3, 4), lambda x: x.reshape(6, 4)),
    "x.reshape(-1)": ((2, 3, 4), lambda x: x.reshape(-1)),
    "x.reshape((4, -1))": ((2, 3, 4), lambda x: x.reshape((4, -1))),
    "torch.reshape(x, (24,))": ((2, 3, 4), lambda x: autoviz.reshape(x, (24,))),
    "x.view(4, 6)": ((2, 3, 4), lambda x: x.view(4, 6)),
    "x.view(-1, 2)": ((2, 3, 4), lambda x: x.view(-1, 2)),
    "x.flatten()": ((2, 3, 4), lambda x: x.flatten()),
    "x.transpose(0, 2)": ((2, 3, 4), lambda x: x.transpose(0, 2)),
    "x.transpose(-1, 1)": ((2, 3, 4), lambda x: x.transpose(-1, 1)),
    "torch.transpose(x, 0, 1)": ((2, 3, 4), lambda x: autoviz.transpose(x, 0, 1)),
    "x.permute(2, 0, 1)": ((2, 3, 4), lambda x: x.permute(2, 0, 1)),
    "x.permute((1, 2, 0))": ((2, 3, 4), lambda x: x.permute((1, 2, 0))),
    "x.permute(-1, 0, 1)": ((2, 3, 4), lambda x: x.permute(-1, 0, 1)),
    "torch.permute(x, (0, 2, 1))": ((2, 3, 4), lambda x: autoviz.permute(x, (0, 2, 1))),
    "x.T (3-D)": ((2, 3, 4), lambda x: x.T),
    "x.unsqueeze(1)": ((2, 3, 4), lambda x: x.unsqueeze(1)),
    "x.unsqueeze(-1)": ((2, 3, 4), lambda x: x.unsqueeze(-1)),
    "torch.unsqueeze(x, 0)": ((2, 3, 4), lambda x: autoviz.unsqueeze(x, 0)),
    "x[0]": ((2, 3, 4), lambda x: x[0]),
    "x[-1, 1:]": ((2, 3, 4), lambda x: x[-1, 1:]),
    "x[..., 2]": ((2, 3, 4), lambda x: x[..., 2]),
    "x[:, None, ::2]": ((2, 3, 4), lambda x: x[:, None, ::2]),
    "x[0, :, [0, 2]]": ((2, 3, 4), lambda x: x[0, :, [0, 2]]),
    "x[:, [0, 1], 1:]": ((2, 3, 4), lambda x: x[:, [0, 1], 1:]),
    "x[[1, 0], ..., 1]": ((2, 3, 4), lambda x: x[[1, 0], ..., 1]),
    "x[None, 0, [1, 2]]": ((2, 3, 4), lambda x: x[None, 0, [1, 2]]),
    "x[:, :]": ((2, 3, 4), lambda x: x[:, :]),
    "x[...]": ((2, 3, 4), lambda x: x[...]),
    "x.mT": ((2, 3, 4), lambda x: x.mT),
    "x.transpose(1, 2).reshape(2, 12)": ((2, 3, 4), lambda x: x.transpose(1, 2).reshape(2, 12)),
    "x.permute(2, 0, 1).contiguous().view(4, 6)": (
        (2, 3, 4),
        lambda x: x.permute(2, 0, 1).contiguous().view(4, 6),
    ),
    "x.t().reshape(4, 3) (alias)": ((3, 4), lambda x: x.t().reshape(4, 3)),
    "x.softmax(-1)": ((2, 3, 4), lambda x: x.softmax(-1)),
    "torch.softmax(x, 1)": ((2, 3, 4), lambda x: autoviz.softmax(x, 1)),
    "x.log_softmax(0)": ((2, 3, 4), lambda x: x.log_softmax(0)),
    "torch.log_softmax(x, -1)": ((2, 3, 4), lambda x: autoviz.log_softmax(x, -1)),
    # on a matrix
    "x.T": ((3, 4), lambda x: x.T),
    "x.t()": ((3, 4), lambda x: x.t()),
    "torch.t(x)": ((3, 4), lambda x: autoviz.t(x)),
    "x[:, 1:]": ((3, 4), lambda x: x[:, 1:]),
    "x[1:, ::2]": ((3, 4), lambda x: x[1:, ::2]),
    "x[0, 1]": ((3, 4), lambda x: x[0, 1]),
    "x[[0, 2, 0]]": ((3, 4), lambda x: x[[0, 2, 0]]),  # a repeated row gets both gradients
    "x[:, [3, 1, 3]]": ((3, 4), lambda x: x[:, [3, 1, 3]]),
    "x[tensor([2, 0])]": ((3, 4), lambda x: x[autoviz.tensor([2, 0])]),
    "x[[0, 1], [2, 2]]": ((3, 4), lambda x: x[[0, 1], [2, 2]]),
    "x.expand(2, 3, 4)": ((3, 1), lambda x: x.expand(2, 3, 4)),
    "x.expand(-1, 5)": ((3, 1), lambda x: x.expand(-1, 5)),
    "x.expand((2, 3, 1))": ((3, 1), lambda x: x.expand((2, 3, 1))),
    # with axes of size 1, and vectors
    "x.squeeze()": ((2, 1, 3, 1), lambda x: x.squeeze()),
    "x.squeeze(1)": ((2, 1, 3, 1), lambda x: x.squeeze(1)),
    "x.squeeze(-1)": ((2, 1, 3, 1), lambda x: x.squeeze(-1)),
    "x.squeeze(0) (size 2: no-op)": ((2, 1, 3, 1), lambda x: x.squeeze(0)),
    "torch.squeeze(x, 1)": ((2, 1, 3, 1), lambda x: autoviz.squeeze(x, 1)),
    "x.t() (1-D)": ((4,), lambda x: x.t() * 1),
    "x.softmax(0) (1-D)": ((4,), lambda x: x.softmax(0)),
    "x[2]": ((4,), lambda x: x[2]),
    "x[-3:]": ((4,), lambda x: x[-3:]),
}


@pytest.mark.filterwarnings("ignore:The use of `x.T` on tensors")
@pytest.mark.parametrize("name", sorted(SHAPE_OPS))
@FEW
@given(data=st.data())
def test_shape_op(name, data):
    """Views, transposes, indexing, expand and softmax send each gradient back to its source."""
    shape, fn = SHAPE_OPS[name]
    gradcheck(fn, data.draw(arrays(shape)))


@FEW
@given(data=st.data())
def test_boolean_mask_indexing(data):
    """x[mask], with the mask a tensor or a numpy array, gathers and scatters back."""
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))
    x = data.draw(arrays(shape, away_from_zero()))  # so `x > 0` stays put under the nudges
    mask = data.draw(hnp.arrays(np.bool_, shape))
    gradcheck(lambda x: x[autoviz.tensor(mask)], x, expect_shape=(int(mask.sum()),))
    rows = data.draw(hnp.arrays(np.bool_, shape[:1]))
    gradcheck(lambda x: x[autoviz.tensor(rows)], x)
    gradcheck(lambda x: x[x > 0], x, expect_shape=(int((x > 0).sum()),))


@pytest.mark.parametrize("dim", [0, 1, -1])
@FEW
@given(data=st.data())
def test_cat_hands_each_input_its_slice(dim, data):
    """torch.cat of two or three tensors with different sizes along `dim`."""
    sizes = data.draw(st.lists(st.integers(1, 3), min_size=2, max_size=3))
    shapes = []
    for n in sizes:
        shape = [2, 3]
        shape[dim] = n
        shapes.append(tuple(shape))
    parts = [data.draw(arrays(s)) for s in shapes]
    total = list(shapes[0])
    total[dim] = sum(sizes)
    gradcheck(lambda *xs: autoviz.cat(list(xs), dim=dim), *parts, expect_shape=total)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
@FEW
@given(data=st.data())
def test_stack_hands_each_input_its_slice(dim, data):
    """torch.stack of two or three same-shaped tensors on a new axis."""
    count = data.draw(st.integers(2, 3))
    parts = [data.draw(arrays((2, 3))) for _ in range(count)]
    want = list(np.stack(parts, axis=dim).shape)
    gradcheck(lambda *xs: autoviz.stack(xs, dim=dim), *parts, expect_shape=want)


def _assign(x, y):
    out = x * 1
    out[0] = y[1]
    out[1:, 1] = y[0, :2] * 2
    out[out > 10] = 0.0  # a mask from values: no value is near 10
    return out


@FEW
@given(data=st.data())
def test_item_assignment_routes_gradients_to_the_value(data):
    """out[key] = value on a tensor in the graph (CopySlices, IndexPutBackward0 for a mask):
    the overwritten part of `out` gets no gradient, `value` gets the gradient of where it went."""
    x = data.draw(arrays((3, 4)))
    y = data.draw(arrays((2, 4)))
    gradcheck(_assign, x, y, expect_shape=(3, 4))
    out = _assign(autoviz.tensor(x, requires_grad=True), autoviz.tensor(y, requires_grad=True))
    assert out.grad_fn.name() == "IndexPutBackward0"  # the last write is a mask's, as in torch


def test_double_converts_and_sends_the_gradient_back_as_float32():
    """x.double() on float32 records ToCopyBackward0; the gradient comes back as float32."""
    x = autoviz.tensor([1.5, -2.0, 0.25], requires_grad=True)
    y = x.double()
    assert y.dtype == F64 and y.grad_fn.name() == "ToCopyBackward0"
    w = np.array([0.5, -1.0, 3.0])
    (y * autoviz.tensor(w, dtype=F64)).sum().backward()
    assert x.grad.dtype == autoviz.float32
    np.testing.assert_array_equal(x.grad.numpy(), w.astype(np.float32))
    z = autoviz.tensor([1.0], dtype=F64, requires_grad=True)
    assert z.double() is z  # already float64: PyTorch returns the same tensor


@FEW
@given(data=st.data())
def test_double_then_float64_ops(data):
    """A float64 graph through .double() and back through .float().double() still checks."""
    x = data.draw(arrays(data.draw(SHAPES)))
    gradcheck(lambda x: (x.double() * x).sin(), x)


# -- matrix products -----------------------------------------------------------------------------
MATMUL = {
    "1-D @ 1-D": lambda n, m, p, b: ((m,), (m,)),
    "2-D @ 2-D": lambda n, m, p, b: ((n, m), (m, p)),
    "2-D @ 1-D": lambda n, m, p, b: ((n, m), (m,)),
    "1-D @ 2-D": lambda n, m, p, b: ((m,), (m, p)),
    "3-D @ 3-D": lambda n, m, p, b: ((b, n, m), (b, m, p)),
    "3-D @ 2-D": lambda n, m, p, b: ((b, n, m), (m, p)),
    "2-D @ 3-D": lambda n, m, p, b: ((n, m), (b, m, p)),
    "3-D @ 1-D": lambda n, m, p, b: ((b, n, m), (m,)),
    "1-D @ 3-D": lambda n, m, p, b: ((m,), (b, m, p)),
    "batch broadcast (1, n, m) @ (b, m, p)": lambda n, m, p, b: ((1, n, m), (b, m, p)),
    "4-D @ 3-D": lambda n, m, p, b: ((2, b, n, m), (b, m, p)),
}


@pytest.mark.parametrize("form", ["@", "torch.matmul", "x.matmul"])
@pytest.mark.parametrize("name", sorted(MATMUL))
@FEW
@given(sizes=st.tuples(*[st.integers(1, 3)] * 4), data=st.data())
def test_matmul(name, form, sizes, data):
    """a @ b for every pair of ranks PyTorch accepts, batch broadcasting included."""
    sa, sb = MATMUL[name](*sizes)
    a, b = data.draw(arrays(sa)), data.draw(arrays(sb))
    fn = {
        "@": lambda a, b: a @ b,
        "torch.matmul": autoviz.matmul,
        "x.matmul": lambda a, b: a.matmul(b),
    }[form]
    gradcheck(fn, a, b, expect_shape=np.matmul(a, b).shape)


@FEW
@given(sizes=st.tuples(*[st.integers(1, 3)] * 3), data=st.data())
def test_mm(sizes, data):
    """torch.mm of two matrices."""
    n, m, p = sizes
    gradcheck(autoviz.mm, data.draw(arrays((n, m))), data.draw(arrays((m, p))))


# -- graph shapes --------------------------------------------------------------------------------
@FEW
@given(a=floats())
def test_fan_out_adds_the_gradients_of_every_use(a):
    """b = a + a; c = b * b: dc/da = 8a, the gradients of each use added."""
    x = autoviz.tensor(a, dtype=F64, requires_grad=True)
    b = x + x
    c = b * b
    c.backward()
    assert x.grad.item() == pytest.approx(8 * a, rel=1e-12, abs=1e-12)
    gradcheck(lambda x: (x + x) * (x + x), np.array([a, -a, 1.0]))


@FEW
@given(a=floats())
def test_diamond_runs_the_shared_node_once_with_the_summed_gradient(a):
    """a -> b -> (c, d) -> e: b's node runs once, after both branches, with their sum."""
    x = autoviz.tensor(a, dtype=F64, requires_grad=True)
    b = x * 3.0
    calls = []
    b.register_hook(lambda g: calls.append(g.item()))
    c, d = b.sin(), b * b
    e = c + d
    e.backward()
    bv = 3.0 * a
    assert calls == [pytest.approx(np.cos(bv) + 2 * bv, rel=1e-12, abs=1e-12)]
    assert x.grad.item() == pytest.approx(3 * (np.cos(bv) + 2 * bv), rel=1e-12, abs=1e-12)
    gradcheck(lambda x: (x * 3.0).sin() + (x * 3.0).exp() * x.tanh(), np.array([a, 0.5]))


def test_leaf_used_by_many_nodes_accumulates_once_per_use():
    """A leaf feeding ten ops collects the sum of ten gradients, in one backward."""
    x = autoviz.tensor([1.0, 2.0], dtype=F64, requires_grad=True)
    total = x * 0
    for k in range(1, 11):
        total = total + x * k
    total.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [55.0, 55.0])


CHAIN = textwrap.dedent(
    """
    import gc, resource
    import autoviz

    x = autoviz.tensor(1.5, requires_grad=True)
    y = x
    for _ in range(1_000_000):
        y = -y
    y.backward()
    print(x.grad.item())
    del y
    gc.collect()
    # The peak of this process's own memory: ru_maxrss also holds the parent's resident size
    # at the spawn (vfork lends the child its memory), a loaded pytest's gigabyte.
    try:
        with open("/proc/self/status") as status:
            peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print("freed", peak // 1024)
    """
)


def test_million_node_chain_backward_and_free():
    """A 1,000,000-node chain: backward is iterative, and freeing it does not overflow the stack."""
    run = subprocess.run(
        [sys.executable, "-c", CHAIN], capture_output=True, text=True, timeout=240, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
    grad, freed = run.stdout.split("\n")[:2]
    assert float(grad) == 1.0
    word, megabytes = freed.split()
    assert word == "freed" and int(megabytes) < 1024, f"peak memory {megabytes} MB"


# -- against PyTorch -----------------------------------------------------------------------------
# Each step makes a new (2, 3) value from earlier ones, with the same code in both libraries.
STEPS = [
    lambda t, a, b: a + b,
    lambda t, a, b: a - b * 0.5,
    lambda t, a, b: a * b,
    lambda t, a, b: a / (b * b + 1),
    lambda t, a, b: (a * a + 1) ** (b.tanh()),
    lambda t, a, b: 2.0**a - b,
    lambda t, a, b: a @ b.T @ a * 0.1,
    lambda t, a, b: a * b.sum(0) + b.mean(1, keepdim=True),
    lambda t, a, b: t.where(a > b, a, b * 2),
    lambda t, a, b: t.cat([a, b], 0)[1:3],
    lambda t, a, b: t.stack([a, b], 2).sum(-1),
    lambda t, a, b: a[:, [2, 0, 1]] - b[[1, 0]],
    lambda t, a, b: a.tanh() + b.sigmoid(),
    lambda t, a, b: a.sin() * b.cos(),
    lambda t, a, b: a.softmax(-1) + b.log_softmax(0),
    lambda t, a, b: (a * a + 1).log() + (b * b + 1).sqrt(),
    lambda t, a, b: a.tanh().exp() - b.abs(),
    lambda t, a, b: t.relu(a) + b.clamp(-0.5, 0.5),
    lambda t, a, b: a.max(1, keepdim=True).values * b + a.min(0).values * b.max(),
    lambda t, a, b: a.reshape(3, 2).t() + b.reshape(6).view(2, 3),
    lambda t, a, b: a.t().reshape(6).view(2, 3) * b.t().contiguous().view(2, 3),
    lambda t, a, b: a.unsqueeze(0).expand(2, 2, 3).sum(0) * b.unsqueeze(-1).squeeze(-1),
    lambda t, a, b: -a.permute(1, 0).transpose(0, 1) + b.clone(),
]


def _run_program(t, leaves, program):
    values = [t.tensor(v, dtype=t.float64, requires_grad=True) for v in leaves]
    xs = list(values)
    for step, i, j in program:
        xs.append(STEPS[step](t, xs[i % len(xs)], xs[j % len(xs)]))
    total = sum((x * (k + 1)).sum() for k, x in enumerate(xs))
    names = [x.grad_fn.name() for x in xs[len(values) :]]
    total.backward()
    return [v.grad.numpy() for v in values], [x.detach().numpy() for x in xs], names


@settings(max_examples=60, deadline=None)
@given(
    leaves=st.lists(arrays((2, 3), floats(-1.5, 1.5)), min_size=2, max_size=3),
    program=st.lists(
        st.tuples(st.integers(0, len(STEPS) - 1), st.integers(0, 50), st.integers(0, 50)),
        min_size=1,
        max_size=6,
    ),
)
def test_random_expression_gradients_equal_pytorch(leaves, program):
    """The same random expression, built and differentiated in both, has the same values,
    grad_fn names and gradients (or both refuse it with the same error)."""
    torch = pytest.importorskip("torch")
    try:
        want_grads, want_values, want_names = _run_program(torch, leaves, program)
    except RuntimeError as error:
        with pytest.raises(RuntimeError) as ours:
            _run_program(autoviz, leaves, program)
        assert str(ours.value).startswith(str(error))
        return
    grads, values, names = _run_program(autoviz, leaves, program)
    assert names == want_names
    for got, want in zip(values, want_values, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    for got, want in zip(grads, want_grads, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
