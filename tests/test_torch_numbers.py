"""autoviz's float32 numbers against PyTorch's CPU results: sums, means, linspace and arange
bit for bit; exp, sin, tanh, ... far closer than numpy's float32 loops; small matrix products."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import autoviz
from autoviz.engine.fidelity.sums import cascade_sum

torch = pytest.importorskip("torch")
SOME = settings(max_examples=60, deadline=None)


@st.composite
def reduction(draw):
    """An array (float32 or float64, maybe transposed or sliced) and the axes to sum over."""
    # Below 32768 elements: above, PyTorch splits a sum between its threads.
    shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=70)
    shape = draw(shapes.filter(lambda s: math.prod(s) < 32768))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    seed = draw(st.integers(0, 2**32 - 1))
    a = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    a *= draw(st.sampled_from([1.0, 1e3, 1e-3]))
    layout = draw(st.sampled_from(["c", "transposed", "sliced"]))
    if layout == "transposed":
        a = a.T
    elif layout == "sliced" and a.shape[0] > 2:
        a = a[::2]
    axes = draw(st.one_of(st.none(), st.sets(st.integers(0, a.ndim - 1), min_size=1)))
    return a, None if axes is None else tuple(sorted(axes))


@SOME
@given(case=reduction())
def test_sums_round_as_pytorchs_do(case):
    """Every element added in PyTorch's order: the same float, bit for bit."""
    a, axes = case
    t = torch.from_numpy(a)  # with a's strides: transposed and sliced layouts too
    want = (t.sum() if axes is None else t.sum(dim=axes)).numpy()
    got = cascade_sum(a, axes)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@SOME
@given(case=reduction())
def test_sum_and_mean_of_tensors_equal_pytorchs(case):
    a, axes = case
    a = np.ascontiguousarray(a)
    mine, theirs = autoviz.tensor(a), torch.from_numpy(a)
    if axes is None:
        pairs = [(mine.sum(), theirs.sum()), (mine.mean(), theirs.mean())]
    else:
        pairs = [(mine.sum(axes), theirs.sum(axes)), (mine.mean(axes), theirs.mean(axes))]
    for got, want in pairs:
        np.testing.assert_array_equal(got.numpy(), want.numpy())


@settings(max_examples=80, deadline=None)
@given(
    start=st.floats(-100, 100),
    span=st.floats(0.01, 200),
    steps=st.integers(0, 3000),
    dtype=st.sampled_from(["float32", "float64"]),
)
def test_linspace_is_pytorchs_to_the_bit(start, span, steps, dtype):
    end = start + span
    want = torch.linspace(start, end, steps, dtype=getattr(torch, dtype)).numpy()
    np.testing.assert_array_equal(
        autoviz.linspace(start, end, steps, dtype=getattr(autoviz, dtype)).numpy(), want
    )


def test_the_tutorials_linspace_and_exp_12():
    """The two numbers issue 19 quotes: linspace(-π, π, 2000) and exp(12.)."""
    mine = autoviz.linspace(-math.pi, math.pi, 2000).numpy()
    theirs = torch.linspace(-math.pi, math.pi, 2000).numpy()
    assert np.sum(np.linspace(-math.pi, math.pi, 2000, dtype=np.float32) != theirs) > 500
    np.testing.assert_array_equal(mine, theirs)
    assert (
        autoviz.exp(autoviz.tensor(12.0)).item()
        == 162754.796875
        == torch.exp(torch.tensor(12.0)).item()
    )


@settings(max_examples=80, deadline=None)
@given(
    start=st.floats(-50, 50),
    step=st.floats(0.001, 3),
    count=st.integers(1, 2500),
    dtype=st.sampled_from(["float32", "float64"]),
)
def test_arange_is_pytorchs_to_the_bit(start, step, count, dtype):
    end = start + step * count
    want = torch.arange(start, end, step, dtype=getattr(torch, dtype)).numpy()
    got = autoviz.arange(start, end, step, dtype=getattr(autoviz, dtype)).numpy()
    np.testing.assert_array_equal(got, want)


# Measured share of 10,000 float32 values where autoviz gives exactly torch's result (and
# numpy's own float32 loop, for comparison); these floors hold with a margin. torch's tanh is
# MKL's, whose kernel depends on the CPU: 99.85% agree where MKL runs AVX2 code, 99.19% where
# it runs AVX-512 code.
AGREEMENT = {"exp": 0.985, "log": 0.90, "sin": 0.93, "cos": 0.93, "tanh": 0.99, "sigmoid": 0.94}


@pytest.mark.parametrize("name", sorted(AGREEMENT))
def test_pointwise_functions_round_nearly_as_pytorch_does(name):
    x = (np.random.default_rng(0).standard_normal(10000) * 3).astype(np.float32)
    if name == "log":
        x = np.abs(x) + np.float32(1e-3)
    want = getattr(torch, name)(torch.from_numpy(x)).numpy()
    got = getattr(autoviz, name)(autoviz.tensor(x)).numpy()
    same = np.mean(got == want)
    assert same >= AGREEMENT[name]
    if name != "sigmoid":  # numpy has no float32 sigmoid loop to compare with
        assert same > np.mean(getattr(np, name)(x) == want)
    assert np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-30)) < 3e-7


@pytest.mark.parametrize("shape", [(3, 4, 2), (2, 3, 2), (8, 16, 4), (16, 10, 8), (1, 64, 5)])
def test_small_matrix_products_round_as_pytorchs_blas_does(shape):
    m, k, n = shape
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    want = (torch.from_numpy(a) @ torch.from_numpy(b)).numpy()
    np.testing.assert_array_equal((autoviz.tensor(a) @ autoviz.tensor(b)).numpy(), want)


@SOME
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(["float32", "float64"]))
def test_tanh_backward_is_pytorchs_to_the_bit_given_the_same_output(seed, dtype):
    """torch's tanh backward is grad · (1 - z²) with 1 - z² one fused multiply-add: on torch's
    own output z, autoviz's gradient is the same float, element for element."""
    rng = np.random.default_rng(seed)
    x = torch.tensor(rng.standard_normal(500) * 2, dtype=getattr(torch, dtype), requires_grad=True)
    g = torch.tensor(rng.standard_normal(500), dtype=getattr(torch, dtype))
    z = torch.tanh(x)
    z.backward(g)
    ours = autoviz.engine.ops.pointwise.Tanh.backward
    ctx = type("Ctx", (), {"saved_tensors": (z.detach().numpy(),)})()
    assert np.array_equal(ours(ctx, g.numpy()), x.grad.numpy())
