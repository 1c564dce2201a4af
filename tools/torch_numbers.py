"""How often autoviz's float32 results equal PyTorch's to the last bit, beside numpy's own
float32 loops: the numbers in the README's "PyTorch's numbers". Needs torch installed.

    python tools/torch_numbers.py
"""

import itertools
import math

import numpy as np
import torch

import autoviz
from autoviz.engine.fidelity.sums import cascade_sum

POINTWISE = ["exp", "log", "sin", "cos", "tanh", "sigmoid", "log10", "log2", "log1p", "expm1"]


def share(a, b) -> str:
    return f"{100 * np.mean(np.asarray(a) == np.asarray(b)):5.1f}%"


def pointwise() -> None:
    x = (np.random.default_rng(0).standard_normal(10000) * 3).astype(np.float32)
    print("pointwise, 10,000 values of randn x 3 (log: |x| + 0.001): equal to torch")
    print(f"  {'function':9} {'autoviz':>8} {'numpy f32':>10}")
    for name in POINTWISE:
        v = np.abs(x) + np.float32(1e-3) if name.startswith("log") else x
        want = getattr(torch, name)(torch.from_numpy(v)).numpy()
        got = getattr(autoviz, name)(autoviz.tensor(v)).numpy()
        plain = 1 / (1 + np.exp(-v)) if name == "sigmoid" else getattr(np, name)(v)
        print(f"  {name:9} {share(got, want):>8} {share(plain.astype(np.float32), want):>10}")


def sums() -> None:
    rng = np.random.default_rng(1)
    cases = [((n,), None) for n in (3, 8, 17, 100, 1000, 2000, 4097, 30000)]
    for shape in [(7, 9), (16, 33), (64, 64), (3, 4, 5), (10, 20, 30)]:
        for r in range(1, len(shape) + 1):
            cases += [(shape, axes) for axes in itertools.combinations(range(len(shape)), r)]
    mine = theirs = 0
    for shape, axes in cases:
        a = rng.standard_normal(shape).astype(np.float32)
        t = torch.from_numpy(a)
        want = (t.sum() if axes is None else t.sum(dim=axes)).numpy()
        mine += np.array_equal(cascade_sum(a, axes), want)
        theirs += np.array_equal(np.sum(a, axis=axes), want)
    print(f"sums over {len(cases)} shapes and dims: autoviz equal in {mine}, numpy in {theirs}")


def ranges() -> None:
    want = torch.linspace(-math.pi, math.pi, 2000).numpy()
    got = autoviz.linspace(-math.pi, math.pi, 2000).numpy()
    plain = np.linspace(-math.pi, math.pi, 2000, dtype=np.float32)
    print(
        f"linspace(-pi, pi, 2000): autoviz differs in {np.sum(got != want)} elements, "
        f"numpy float32 in {np.sum(plain != want)}"
    )
    want = torch.arange(-math.pi, math.pi, 0.01).numpy()
    got = autoviz.arange(-math.pi, math.pi, 0.01).numpy()
    plain = np.arange(-math.pi, math.pi, 0.01, dtype=np.float32)
    print(
        f"arange(-pi, pi, 0.01): autoviz differs in {np.sum(got != want)} of {len(want)}, "
        f"numpy float32 in {np.sum(plain[: len(want)] != want)}"
    )
    print(
        f"exp(12.): torch {torch.exp(torch.tensor(12.0)).item()}, autoviz "
        f"{autoviz.exp(autoviz.tensor(12.0)).item()}, numpy {np.exp(np.float32(12.0))}"
    )


def products() -> None:
    rng = np.random.default_rng(2)
    rows = []
    for m, k, n in [(3, 4, 2), (16, 10, 8), (2000, 3, 1), (64, 784, 128), (32, 64, 16)]:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        want = (torch.from_numpy(a) @ torch.from_numpy(b)).numpy()
        got = (autoviz.tensor(a) @ autoviz.tensor(b)).numpy()
        rows.append(f"  {m}x{k} @ {k}x{n}: autoviz {share(got, want)}, numpy {share(a @ b, want)}")
    print("matrix products, elements equal to torch:")
    print("\n".join(rows))


if __name__ == "__main__":
    torch.set_num_threads(1)
    pointwise()
    sums()
    ranges()
    products()
