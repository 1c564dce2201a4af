"""trace_torch() against TorchLens, the tool users pick to record a real torch program, in one run.

Both record the forward pass of the same nn.Module on the same input: TorchLens with its capture
call (`torchlens.trace`, `log_forward_pass` before 2.0) keeping every layer's output, trace_torch
around `model(x)`, its Timeline then built (first use). Programs of every size: chains of scalar
ops (100 and 1,000, and 3,000 without --quick), an MLP 784-128-64-10, a residual MLP of 20
blocks. Targets: trace_torch (recording + build) faster than TorchLens, and within 3x of the
untraced forward pass, at every size. The three contenders take turns in a rotating order, each
from a collected heap; a ratio is the median of the ratios of runs made back to back, with its
middle half.

TorchLens is installed with `pip install torchlens`; without it only torch and trace_torch run.
"""

import argparse
import warnings

import harness  # before numpy and torch: one thread

import autoviz

torch = harness.torch()
TARGET = 3.0


class Chain(torch.nn.Module):
    """`n` scalar ops: `*`, `+` and relu in turn on two parameters."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n
        self.a = torch.nn.Parameter(torch.tensor(0.001))
        self.b = torch.nn.Parameter(torch.tensor(1.0))

    def forward(self, x):
        h = x * self.a
        for i in range(self.n):
            h = h * self.b if i % 3 == 0 else h + self.a if i % 3 == 1 else torch.relu(h)
        return h


class Residual(torch.nn.Module):
    """`blocks` residual blocks x + Linear(ReLU(x)) of width 32, then a head."""

    def __init__(self, blocks: int) -> None:
        super().__init__()
        self.blocks = torch.nn.ModuleList(torch.nn.Linear(32, 32) for _ in range(blocks))
        self.head = torch.nn.Linear(32, 1)

    def forward(self, x):
        for block in self.blocks:
            x = x + block(torch.relu(x))
        return self.head(x)


def programs(quick: bool) -> list:
    """(label, model, input) of every program measured."""
    torch.manual_seed(0)
    sizes = (100, 1_000) if quick else (100, 1_000, 3_000)
    out = [(f"chain, {n:,} scalar ops", Chain(n), torch.tensor(1.0)) for n in sizes]
    mlp = torch.nn.Sequential(
        torch.nn.Linear(784, 128),
        torch.nn.ReLU(),
        torch.nn.Linear(128, 64),
        torch.nn.ReLU(),
        torch.nn.Linear(64, 10),
    )
    out.append(("MLP 784-128-64-10, batch 64", mlp, torch.randn(64, 784)))
    out.append(("residual MLP, 20 blocks, batch 16", Residual(20), torch.randn(16, 32)))
    return out


def torchlens_capture():
    """TorchLens's capture call, or None when it is not installed."""
    try:
        import torchlens
    except ImportError:
        return None
    capture = getattr(torchlens, "trace", None)
    if not callable(capture):  # before 2.0 it was log_forward_pass
        capture = torchlens.log_forward_pass
    return capture


def contenders(model, x, capture) -> dict:
    def traced():
        made = {}

        def record():
            with autoviz.trace_torch() as tl:
                model(x)
            made["tl"] = tl

        return harness.phases(record=record, build=lambda: len(made["tl"]) and made["tl"])

    runs = {"torch": lambda: model(x), "trace_torch": traced}
    if capture is not None:
        runs["torchlens"] = lambda: capture(model, x)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="chains of 100 and 1,000; 3 rounds")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rounds = 3 if args.quick else args.rounds
    capture = torchlens_capture()
    print(f"{harness.PINNED}; {rounds} rounds")
    if capture is None:
        print("TorchLens is not installed (pip install torchlens): its columns are empty")
    print(
        "\n| program | torch | trace_torch: recording + build | / torch | TorchLens | / torch "
        "| trace_torch / TorchLens |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    targets = harness.Targets("vs_torchlens.py")
    for label, model, x in programs(args.quick):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # TorchLens's notes on wrapping torch
            t = harness.alternate(contenders(model, x, capture), rounds)
        base, ours = harness.column(t["torch"]), harness.column(t["trace_torch"])
        cells = [
            label,
            harness.fmt_time(harness.median(base)),
            harness.fmt_time(harness.median(ours)),
        ]
        cells.append(harness.fmt_ratio(harness.ratios(ours, base)))
        targets.ratio(
            f"trace_torch (recording + build) / torch, {label}", harness.ratios(ours, base), TARGET
        )
        if capture is not None:
            lens = harness.column(t["torchlens"])
            cells += [
                harness.fmt_time(harness.median(lens)),
                harness.fmt_ratio(harness.ratios(lens, base)),
                harness.fmt_ratio(harness.ratios(ours, lens)),
            ]
            targets.ratio(f"trace_torch / TorchLens, {label}", harness.ratios(ours, lens), 1.0)
        else:
            cells += ["-", "-", "-"]
        print("| " + " | ".join(cells) + " |", flush=True)
    print(
        "\ntrace_torch: the forward pass inside trace_torch() and the Timeline's first use; "
        "TorchLens: its capture call keeping every layer's output; ratios are medians of the "
        "ratios of runs made back to back, with their middle half"
    )
    targets.write()


if __name__ == "__main__":
    main()
