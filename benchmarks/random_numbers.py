"""autoviz's random numbers beside torch's (CPU), which they equal bit for bit, in one run.

    python benchmarks/random_numbers.py            # every workload, 15 pairs each
    python benchmarks/random_numbers.py --quick    # 5 pairs each

Both libraries run in this process, seeded alike before every call, and each run checks that
the values are equal. The two alternate (autoviz, torch, autoviz, ...) with gc.collect()
before each call; torch and the BLAS are pinned to one thread; a row gives each library's
median time and the median of the pairs' ratios autoviz / torch with its spread (the lowest and
highest ratio), since the speed of a shared machine changes from one second to the next.

Target: a 1000 x 1000 randn within 10x of torch's (torch does Box-Muller in AVX2 registers;
autoviz redoes the same float32 arithmetic, FMA by FMA, in numpy).
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy and torch load their thread pools

import argparse  # noqa: E402
import gc  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
import autoviz  # noqa: E402

WORKLOADS = {
    "randn 1000x1000": lambda T: T.randn(1000, 1000),
    "randn 1000x1000 float64": lambda T: T.randn(1000, 1000, dtype=T.float64),
    "rand 1000x1000": lambda T: T.rand(1000, 1000),
    "uniform_(-1, 1) 1000x1000": lambda T: T.zeros(1000, 1000).uniform_(-1, 1),
    "normal_(0.5, 2) 1000x1000": lambda T: T.zeros(1000, 1000).normal_(0.5, 2.0),
    "randint 1000x1000": lambda T: T.randint(0, 10, (1000, 1000)),
    "randperm 60000 (an MNIST epoch)": lambda T: T.randperm(60000),
    "dropout 1000x1000": lambda T: T.nn.functional.dropout(T.ones(1000, 1000), 0.5),
    "multinomial 1000 from 1000": lambda T: T.multinomial(T.ones(1000, 1000), 1),
    "nn.Linear(784, 256)": lambda T: T.nn.Linear(784, 256).weight,
    "randn(16), 1000 times": lambda T: [T.randn(16) for _ in range(1000)][-1],
}


def clock(lib, work) -> tuple:
    """Seconds for one seeded call, and its values."""
    lib.manual_seed(0)
    gc.collect()
    start = time.perf_counter()
    out = work(lib)
    return time.perf_counter() - start, np.asarray(out.detach().numpy())


def row(torch, work, pairs: int) -> dict:
    ours, theirs, ratios = [], [], []
    for _ in range(pairs):
        a, mine = clock(autoviz, work)
        b, expected = clock(torch, work)
        if not np.array_equal(mine, expected):
            raise SystemExit("autoviz's values differ from torch's: this is a bug, please report")
        ours.append(a)
        theirs.append(b)
        ratios.append(a / b)
    return {
        "autoviz": statistics.median(ours),
        "torch": statistics.median(theirs),
        "ratio": statistics.median(ratios),
        "spread": (min(ratios), max(ratios)),
    }


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.0f} us"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 pairs per workload")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        raise SystemExit("this benchmark compares with torch: pip install torch") from None
    torch.set_num_threads(1)
    pairs = 5 if args.quick else 15
    print(f"numpy {np.__version__}, torch {torch.__version__}, {pairs} pairs per row\n")
    print("| workload | autoviz | torch | autoviz / torch (spread) |")
    print("|---|---:|---:|---:|")
    for name, work in WORKLOADS.items():
        r = row(torch, work, pairs)
        low, high = r["spread"]
        print(
            f"| {name} | {ms(r['autoviz'])} | {ms(r['torch'])} | "
            f"{r['ratio']:.2f}x ({low:.2f}-{high:.2f}) |",
            flush=True,
        )


if __name__ == "__main__":
    main()
