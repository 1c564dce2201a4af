"""Big graphs degrade, never fail: what a player of a 1,000-5,000-node graph costs, and what
dot's time on such graphs goes to.

Shapes (tests/programs.py::big_graph): an irregular chain, a wide fan-in (one stack of every
input), an irregular residual net, and issue 30's loop (h @ W[i % 8], a tanh, a mean taken off,
the same ops each iteration). For each shape and size, save_html's seconds and what the
drawing did (folds, nodes drawn). Then dot alone on the unfolded drawings of the irregular
shapes, as autoviz writes them now and with each of its big-drawing settings undone (gradient
labels taking ranks, crossing minimisation and x-coordinates at dot's defaults), the cost
drivers LAYOUT_TIERS in render/dot.py chooses by. Finally `autoviz html` on the issue's
160-step program in both engines.

Targets: every player within 30 s; the 160-step program's `autoviz html` within 60 s in both
engines. Seconds, not ratios: the page has to be written in time on the machine it runs on.
"""

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness  # before numpy and torch: one thread

from autoviz.render import frames_for
from autoviz.render.dot import LAYOUT_TIERS
from autoviz.render.layout import find_engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from programs import BIG_SHAPES, big_graph

PLAYER_TARGET, PROGRAM_TARGET = 30.0, 60.0
DEEP = """
import torch
torch.manual_seed(0)
W = [torch.randn(16, 16, requires_grad=True) for _ in range(8)]
h = torch.randn(32, 16)
total = 0
for i in range(160):
    h = h @ W[i % 8]
    b = h.tanh() * 0.5 + h
    h = b - b.mean(0, keepdim=True)
    total = total + h.sum()
loss = total / 160
loss.backward()
"""


def player(shape: str, nodes: int, out: Path) -> tuple:
    """(seconds to trace, build and save the player, what its first graph's drawing did)."""
    start = time.perf_counter()
    tl = big_graph(shape, nodes)
    tl.save_html(out / f"{shape}-{nodes}.html")
    seconds = time.perf_counter() - start
    plan = frames_for(tl).template(0)[2]
    if plan is None:
        return seconds, len(tl.nodes), "summary"
    folds = "; ".join(f.title() for f in plan.folds) or "no fold"
    return seconds, len(tl.nodes), f"{plan.drawn:,} drawn ({folds})"


def dot_seconds(source: str, undo: str = "") -> float:
    """Seconds `dot -Tsvg` takes on `source`, with one of autoviz's settings undone."""
    if undo == "xlabels":
        source = source.replace(" xlabel=<", " label=<")
    elif undo == "attributes":
        for _, attributes, _ in LAYOUT_TIERS:
            source = source.replace(" " + attributes, "")
    start = time.perf_counter()
    subprocess.run([find_engine(), "-Tsvg"], input=source.encode(), capture_output=True, check=True)
    return time.perf_counter() - start


def cli(engine: str, script: Path, out: Path) -> float:
    start = time.perf_counter()
    command = [sys.executable, "-m", "autoviz", "html", "--engine", engine, str(script)]
    subprocess.run([*command, "-o", str(out)], capture_output=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 and 3,000 nodes")
    args = parser.parse_args()
    sizes = (1_000, 3_000) if args.quick else (1_000, 3_000, 5_000)
    harness.compile_package()
    targets = harness.Targets("big_graphs.py")
    print(f"{harness.PINNED}\n")
    print("| shape | nodes | save_html | drawing |")
    print("|---|---:|---:|---|")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        for nodes in sizes:
            for shape in BIG_SHAPES:
                seconds, count, what = player(shape, nodes, out)
                print(f"| {shape} | {count:,} | {harness.fmt_time(seconds)} | {what} |", flush=True)
                targets.add(
                    f"player of a {nodes:,}-node {shape}: seconds", seconds, PLAYER_TARGET, "s"
                )
        print("\n| drawing | dot as autoviz asks | labels taking ranks | dot's defaults |")
        print("|---|---:|---:|---:|")
        for shape in ("chain", "residual"):
            tl = big_graph(shape, sizes[-1])
            source = frames_for(tl).template(0)[0]
            drawn = len(re.findall(r"^\tn\d+ \[", source, re.M))
            cells = [
                harness.fmt_time(dot_seconds(source, undo))
                for undo in ("", "xlabels", "attributes")
            ]
            print(f"| {shape}, {drawn:,} nodes drawn | " + " | ".join(cells) + " |", flush=True)
        script = out / "deep.py"
        script.write_text(DEEP)
        print("\n| 160-step deep program, `autoviz html` | seconds |")
        print("|---|---:|")
        engines = ("autoviz", "torch") if _has_torch() else ("autoviz",)
        for engine in engines:
            seconds = cli(engine, script, out / f"deep-{engine}.html")
            print(f"| --engine {engine} | {harness.fmt_time(seconds)} |", flush=True)
            targets.add(
                f"160-step deep program, autoviz html --engine {engine}: seconds",
                seconds,
                PROGRAM_TARGET,
                "s",
            )
    print(
        "\nsave_html: tracing, building and writing the player; drawing: what the first graph's "
        "picture folded and how many nodes dot placed; dot columns: one run of dot -Tsvg"
    )
    targets.write()


def _has_torch() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    main()
