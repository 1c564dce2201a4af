"""conv2d in float32 rounds as PyTorch's CPU kernel does (engine/fidelity/onednn.py): the
output, the input's, the weight's and the bias's gradients bit for bit where oneDNN's order
applies, and to a few ulps elsewhere."""

import numpy as np
import pytest

import autoviz

torch = pytest.importorskip("torch")

# (batch, in channels, size, out channels, kernel, padding, stride)
EXACT = [
    (2, 1, 8, 4, 3, 0, 1),
    (2, 3, 8, 4, 3, 1, 1),
    (4, 3, 16, 8, 3, 1, 1),
    (2, 8, 8, 16, 3, 1, 1),
    (2, 16, 8, 16, 3, 1, 1),
    (3, 4, 7, 5, 2, 0, 1),
    (2, 3, 8, 4, 5, 0, 1),
    (2, 3, 9, 4, 3, 1, 2),
    (2, 8, 8, 16, 3, 1, 2),  # strides that leave the last padded column: a chain per column
    (2, 4, 12, 6, 5, 2, 2),
    (2, 3, (9, 8), 4, 3, 1, 2),
    (2, 3, (8, 9), 4, 3, 1, 2),
    (2, 3, 13, 4, 3, 1, 3),
    (2, 32, 6, 8, 3, 1, 1),  # more than 16 channels: a chain per block of 16, then added
    (2, 8, 8, 32, 3, 1, 1),
    (2, 24, 6, 20, 3, 1, 1),
    (4, 64, 6, 64, 3, 1, 1),
    (2, 32, 8, 16, 3, 1, 2),
    (1, 1, 12, 6, 5, 0, 1),  # a batch of one with a 5x5 kernel: oneDNN too
    (16, 3, 12, 8, 3, 1, 1),
]
# Cases the emulation leaves to numpy (a strided input gradient of more than 16 channels, a
# batch of one torch sends to im2col, dilation, groups): close, not necessarily equal.
OTHER = [
    (2, 4, 8, 48, 3, 1, 2, {}),
    (1, 3, 10, 4, 3, 1, 1, {}),
    (2, 4, 9, 4, 3, 2, 1, {"dilation": 2}),
    (2, 4, 8, 4, 3, 1, 1, {"groups": 2}),
]


def _both(n, c, size, o, k, pad, stride, seed, dims=2, **options):
    rng = np.random.default_rng(seed)
    size = size if isinstance(size, tuple) else (size,) * dims
    x = rng.standard_normal((n, c, *size)).astype(np.float32)
    w = rng.standard_normal((o, c // options.get("groups", 1), *(k,) * dims)).astype(np.float32)
    b = rng.standard_normal(o).astype(np.float32)
    outs = []
    for module in (torch, None):
        with autoviz.as_torch() if module is None else _nothing():
            import torch as t

            X, W, B = (t.tensor(a, requires_grad=True) for a in (x, w, b))
            conv = t.nn.functional.conv2d if dims == 2 else t.nn.functional.conv1d
            y = conv(X, W, B, stride=stride, padding=pad, **options)
            g = np.random.default_rng(seed + 1).standard_normal(tuple(y.shape))
            y.backward(t.tensor(g.astype(np.float32)))
            outs.append([v.detach().numpy().copy() for v in (y, X.grad, W.grad, B.grad)])
    return outs


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("case", EXACT, ids=str)
def test_conv2d_is_torchs_bit_for_bit(case):
    torch.set_num_threads(1)
    want, got = _both(*case, seed=len(str(case)))
    for name, a, b in zip(("out", "x.grad", "w.grad", "b.grad"), want, got, strict=True):
        assert a.dtype == b.dtype == np.float32
        np.testing.assert_array_equal(b, a, err_msg=name)


@pytest.mark.parametrize("case", OTHER, ids=str)
def test_conv2d_elsewhere_is_close(case):
    *shape, options = case
    want, got = _both(*shape, seed=len(str(shape)), **options)
    for name, a, b in zip(("out", "x.grad", "w.grad", "b.grad"), want, got, strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5, err_msg=name)


@pytest.mark.parametrize(
    "case", [(4, 3, 20, 8, 3, 1, 1), (2, 8, 30, 16, 5, 2, 1), (8, 1, 16, 4, 3, 0, 1)]
)
def test_conv1d_is_torchs_bit_for_bit(case):
    torch.set_num_threads(1)
    want, got = _both(*case, seed=len(str(case)), dims=1)
    for name, a, b in zip(("out", "x.grad", "w.grad", "b.grad"), want, got, strict=True):
        np.testing.assert_array_equal(b, a, err_msg=name)
