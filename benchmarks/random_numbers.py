"""autoviz's random numbers beside torch's (CPU), which they equal bit for bit, in one run.

    python benchmarks/random_numbers.py            # every workload, 15 rounds each
    python benchmarks/random_numbers.py --quick    # 5 rounds each

Both libraries run in this process, seeded alike before every call, and the values of each
round are checked equal. Contenders alternate (benchmarks/harness.py: one BLAS and torch
thread, a collected heap before each run); a row gives each library's median and the median
of the rounds' ratios autoviz / torch with its middle half.

Targets: a 1000 x 1000 randn within 15x of torch's (torch does Box-Muller in AVX2 registers;
autoviz redoes the same float32 arithmetic, FMA by FMA, in numpy), rand within 2x.
(This file is not called random.py: a script of that name would shadow Python's `random`.)
"""

import argparse

import harness  # before numpy: one BLAS thread

import autoviz

WORKLOADS = {
    "randn 1000x1000": lambda T: T.randn(1000, 1000),
    "randn 1000x1000 float64": lambda T: T.randn(1000, 1000, dtype=T.float64),
    "rand 1000x1000": lambda T: T.rand(1000, 1000),
    "uniform_(-1, 1) 1000x1000": lambda T: T.zeros(1000, 1000).uniform_(-1, 1),
    "normal_(0.5, 2) 1000x1000": lambda T: T.zeros(1000, 1000).normal_(0.5, 2.0),
    "randint 1000x1000": lambda T: T.randint(0, 10, (1000, 1000)),
    "randperm 60000 (an MNIST epoch)": lambda T: T.randperm(60000),
    "dropout 1000x1000": lambda T: T.nn.functional.dropout(T.ones(1000, 1000), 0.5),
    "multinomial, 1000 rows of 1000": lambda T: T.multinomial(T.ones(1000, 1000), 1),
    "nn.Linear(784, 256)": lambda T: T.nn.Linear(784, 256).weight.detach(),
    "randn(16), 100 times": lambda T: [T.randn(16) for _ in range(100)][-1],
}
TARGETS = {"randn 1000x1000": 15.0, "rand 1000x1000": 2.0}


def seeded(lib, work, results: list):
    """A contender: seed, run, keep the values for the equality check."""

    import numpy as np

    def run():
        lib.manual_seed(0)
        results.append(np.asarray(work(lib).numpy()))

    return run


def row(torch, work, rounds: int) -> dict:
    import numpy as np

    mine, theirs = [], []
    runs = harness.alternate(
        {"autoviz": seeded(autoviz, work, mine), "torch": seeded(torch, work, theirs)}, rounds
    )
    if any(not np.array_equal(a, b) for a, b in zip(mine, theirs, strict=True)):
        raise SystemExit("autoviz's values differ from torch's: a bug, please report it")
    ours, peer = harness.column(runs["autoviz"]), harness.column(runs["torch"])
    return {"autoviz": ours, "torch": peer, "ratios": harness.ratios(ours, peer)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 rounds per workload")
    args = parser.parse_args()
    try:
        torch = harness.torch()
    except ImportError:
        from autoviz.bridge.require import TORCH_HINT

        raise SystemExit(f"this benchmark compares with torch: {TORCH_HINT}") from None
    rounds = 5 if args.quick else 15
    import numpy as np

    targets = harness.Targets("random_numbers")
    print(f"{harness.PINNED}; numpy {np.__version__}, torch {torch.__version__}, {rounds} rounds")
    print()
    print("| workload | autoviz | torch | autoviz / torch |")
    print("|---|---:|---:|---:|")
    for name, work in WORKLOADS.items():
        r = row(torch, work, rounds)
        ours, peer = harness.median(r["autoviz"]), harness.median(r["torch"])
        print(
            f"| {name} | {harness.fmt_time(ours)} | {harness.fmt_time(peer)} | "
            f"{harness.fmt_ratio(r['ratios'])} |",
            flush=True,
        )
        if name in TARGETS:
            targets.ratio(f"{name} / torch", r["ratios"], TARGETS[name])
    targets.write()


if __name__ == "__main__":
    main()
