"""Long training loops: exports linear in the number of iterations, jumps, a tutorial's 2,000.

* `save_html` of a training loop (nn.Linear, MSE, optim.SGD, a new batch each iteration) at
  50 to 400 iterations: the time per iteration (target: constant, the 400-iteration one at
  most 1.25x the 50-iteration one, sizes alternated in rounds) and the whole 400 (<= 1 s);
* jumping to another iteration's frame in the 400-iteration timeline (target <= 16 ms);
* PyTorch's polynomial-fitting tutorial (y = a + b x + c x² + d x³ on 2,000 points, 2,000
  iterations, a manual gradient step under no_grad), traced and written as an HTML player by
  the CLI as a user runs it, `autoviz html` and `autoviz html --torch` (targets: <= 10 s,
  player <= 2 MB). A run over the time limit is stopped and reported as such.
"""

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness  # before numpy: one BLAS thread

import autoviz
from autoviz.export.html import player_page
from autoviz.render.layout import engine_name, find_engine

SIZES = (50, 100, 200, 400)
POLYNOMIAL = '''"""PyTorch's tutorial: y = sin(x) fitted by a cubic, autograd, manual steps."""
import math

import {lib} as torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
torch.manual_seed(0)
a = torch.randn((), requires_grad=True)
b = torch.randn((), requires_grad=True)
c = torch.randn((), requires_grad=True)
d = torch.randn((), requires_grad=True)
learning_rate = 1e-6
for t in range({iterations}):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f"Result: y = {{a.item()}} + {{b.item()}} x + {{c.item()}} x^2 + {{d.item()}} x^3")
'''


def training_loop(iterations: int):
    """nn.Linear(3, 1) fitted with MSE and optim.SGD, a new batch of 8 each iteration."""
    autoviz.manual_seed(0)
    net = autoviz.nn.Linear(3, 1)
    opt = autoviz.optim.SGD(net.parameters(), lr=0.1)
    with autoviz.trace() as tl:
        for _ in range(iterations):
            x, y = autoviz.randn(8, 3), autoviz.randn(8, 1)
            opt.zero_grad()
            loss = autoviz.nn.functional.mse_loss(net(x), y)
            loss.backward()
            opt.step()
    len(tl)  # built outside the timings
    return tl


def fresh(tl):
    """`tl` without what an earlier export kept on it (its index, its frames)."""
    tl.__dict__.pop("_index", None)
    tl.__dict__.pop("_frames", None)
    return tl


def save_html_rounds(timelines: dict, rounds: int) -> dict:
    return harness.alternate(
        # every iteration in full: the export's own cost, not what condensing spares
        {
            n: (lambda tl=tl: player_page(fresh(tl), full_iterations=None))
            for n, tl in timelines.items()
        },
        rounds,
    )


def jumps(tl) -> list:
    """Seconds of each jump to a step of another iteration, once the layout is made."""
    graphs = {}
    for step in tl.steps:
        graphs.setdefault(step.details["graph"], step.index)
    tl.draw(step=0).svg()
    order = [350, 10, 200, 399, 50, 300, 120, 260, 5, 390]
    return [harness.clock(lambda g=g: tl.draw(step=graphs[g] + 7).svg()) for g in order]


def cli_run(lib: str, iterations: int, limit: float) -> dict:
    """Seconds and bytes of `autoviz html [--torch] script.py`, or None when over `limit`."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "polynomial.py"
        script.write_text(POLYNOMIAL.format(lib=lib, iterations=iterations), encoding="utf-8")
        out = Path(folder) / "polynomial.html"
        cli = [sys.executable, "-m", "autoviz", "html", str(script), "-o", str(out)]
        cli += ["--torch"] * (lib == "torch")
        start = time.perf_counter()
        try:
            subprocess.run(cli, check=True, capture_output=True, timeout=limit)
        except subprocess.TimeoutExpired:
            return {"seconds": None, "bytes": None}
        return {"seconds": time.perf_counter() - start, "bytes": out.stat().st_size}


def cli_rounds(iterations: int, rounds: int, limit: float) -> dict:
    """Each engine's CLI run `rounds` times, taking turns: the median seconds, the fastest
    and slowest, and the player's size (None when a run went over `limit`)."""
    harness.compile_package()
    runs = {"autoviz": [], "torch": []}
    for r in range(rounds):
        for lib in list(runs)[r % 2 :] + list(runs)[: r % 2]:
            runs[lib].append(cli_run(lib, iterations, limit))
    found = {}
    for lib, results in runs.items():
        seconds = [x["seconds"] for x in results]
        if None in seconds:
            found[lib] = {"seconds": None, "bytes": None}
            continue
        found[lib] = {
            "seconds": harness.median(seconds),
            "low": min(seconds),
            "high": max(seconds),
            "bytes": results[-1]["bytes"],
        }
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds; 60 s limit per run")
    parser.add_argument("--iterations", type=int, default=2000, help="of the polynomial fit")
    args = parser.parse_args()
    rounds, limit = (3, 60.0) if args.quick else (5, 300.0)
    print(f"{harness.PINNED}; {rounds} rounds; layouts by {engine_name(find_engine())}\n")
    timelines = {n: training_loop(n) for n in SIZES}
    t = save_html_rounds(timelines, rounds)
    per = {n: [s / n for s in harness.column(t[n])] for n in SIZES}
    print("| iterations | steps | save_html | per iteration | per iteration / at 50 |")
    print("|---:|---:|---:|---:|---:|")
    for n in SIZES:
        growth = harness.ratios(per[n], per[SIZES[0]])
        whole = harness.fmt_time(harness.median(harness.column(t[n])))
        print(
            f"| {n} | {len(timelines[n]):,} | {whole}"
            f" | {harness.fmt_time(harness.median(per[n]))} | {harness.fmt_ratio(growth)} |"
        )
    jump = jumps(timelines[SIZES[-1]])
    print(
        f"\njump to another iteration's frame, {SIZES[-1]} iterations: median "
        f"{harness.fmt_time(harness.median(jump))}, slowest {harness.fmt_time(max(jump))}\n"
    )
    poly = cli_rounds(args.iterations, rounds, limit)
    print(f"| polynomial fit, {args.iterations:,} iterations | CLI | seconds (range) | player |")
    print("|---|---|---:|---:|")
    for lib, r in poly.items():
        cli = "autoviz html" + " --torch" * (lib == "torch")
        seconds = (
            f"{harness.fmt_time(r['seconds'])} ({harness.fmt_time(r['low'])}–"
            f"{harness.fmt_time(r['high'])})"
            if r["seconds"]
            else f"over {limit:.0f} s"
        )
        size = f"{r['bytes'] / 1e6:.2f} MB" if r["bytes"] else "-"
        print(f"| {lib} engine | `{cli}` | {seconds} | {size} |")

    targets = harness.Targets("loops.py")
    last = SIZES[-1]
    targets.ratio(
        f"save_html per iteration, {last} / {SIZES[0]} iterations",
        harness.ratios(per[last], per[SIZES[0]]),
        1.25,
    )
    targets.add(f"save_html, {last} iterations", harness.median(harness.column(t[last])), 1.0, "s")
    targets.add(
        f"jump to another graph's frame, {last} iterations", harness.median(jump) * 1e3, 16.0, "ms"
    )
    for lib, r in poly.items():
        cli = "autoviz html" + " --torch" * (lib == "torch")
        label = f"polynomial fit, {args.iterations:,} iterations, `{cli}`"
        seconds = r["seconds"] if r["seconds"] is not None else float("inf")
        targets.add(f"{label}: seconds", seconds, 10.0, "s")
        size = r["bytes"] / 1e6 if r["bytes"] is not None else float("inf")
        targets.add(f"{label}: player size", size, 2.0, "MB")
    targets.write()


if __name__ == "__main__":
    main()
