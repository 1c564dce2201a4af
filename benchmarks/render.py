"""Drawing cost beside torchviz: a whole draw call per program, and stepping frames.

Programs, each built once in autoviz and once in PyTorch: chains of sin and tanh on one leaf
(10 to 5,000 nodes), an MLP 784-128-64-10 with its loss, and a residual MLP of 20 blocks
(x = x + relu(linear(x))). Contenders, all laid out by the same Graphviz `dot`, a new process
per call: torchviz's `make_dot(y).pipe(format="svg")`, `autoviz.draw(torch_tensor).svg()`
(through the bridge) and `autoviz.draw(y).svg()` on autoviz's own tensors. Each call is timed
whole (walking the graph, DOT text, layout) as the wall time a user waits; the contenders take
turns in a rotating order, each from a collected heap, and a ratio is the median of the ratios
of calls made back to back, with their middle half.

autoviz runs dot for SVG without its Pango plugin (text sized from dot's font tables), from a
folder made once per installed dot (timed first). autoviz draws tensors as nodes too; above
collapse_above (300) nodes it leaves the inner tensors out by default, so big graphs are drawn
with about as many nodes as torchviz draws. Targets: autoviz.draw of a torch tensor (and of its
own) no slower than torchviz at any size.
"""

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile

import harness  # before numpy and torch: one thread

import autoviz
from autoviz.render import draw_frame, plugins

torch = harness.torch()

SIZES = (10, 100, 1000, 5000)  # autoviz nodes of the chain: 2 per op plus the leaf
BIG = {"max_nodes": 10_000, "timeout": 1200}  # a 5,000-node layout takes minutes


def chain(lib, n_ops: int):
    """y = tanh(sin(tanh(... x))) with `n_ops` ops, in autoviz or torch."""
    x = lib.tensor([0.5, -0.25], requires_grad=True)
    y = x
    for i in range(n_ops):
        y = y.sin() if i % 2 else y.tanh()
    return y.sum() if n_ops % 2 == 0 else y.mean()


def mlp(lib):
    """An MLP 784-128-64-10 on a batch of 8 and its cross-entropy loss."""
    lib.manual_seed(0)
    nn = lib.nn
    net = nn.Sequential(
        nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10)
    )
    return nn.functional.cross_entropy(net(lib.randn(8, 784)), lib.randint(0, 10, (8,)))


def residual(lib, blocks: int = 20):
    """x = x + relu(linear(x)), `blocks` times, on a batch of 4 of width 16; the mean."""
    lib.manual_seed(0)
    layers = [lib.nn.Linear(16, 16) for _ in range(blocks)]
    x = lib.randn(4, 16)
    for layer in layers:
        x = x + lib.relu(layer(x))
    return x.mean()


def making_the_folder() -> float:
    """Seconds to make dot's plugin folder, as the first diagram with a newly installed dot does
    (in a scratch cache folder, so the real one stays)."""
    saved = os.environ.get("XDG_CACHE_HOME")
    try:
        with tempfile.TemporaryDirectory() as scratch:
            os.environ["XDG_CACHE_HOME"] = scratch
            plugins._FOLDERS.clear()  # the next lookup makes the folder anew
            return harness.clock(lambda: plugins.plugin_folder(shutil.which("dot")))
    finally:
        os.environ.pop("XDG_CACHE_HOME")
        if saved is not None:
            os.environ["XDG_CACHE_HOME"] = saved
        plugins._FOLDERS.clear()  # the next lookup makes the folder anew


def drawn_nodes(source: str) -> int:
    return len(re.findall(r'^\t+(?:n\d+|m\d+) \[id="', source, re.M))


def measure(label: str, ours, theirs, rounds: int, frames_of=None) -> dict:
    """Paired times of the three contenders on one program; frames when `frames_of` is given."""
    from torchviz import make_dot

    contenders = {
        "torchviz": lambda: make_dot(theirs).pipe(format="svg"),
        "bridge": lambda: autoviz.draw(theirs, **BIG).svg(),
        "autoviz": lambda: autoviz.draw(ours, **BIG).svg(),
    }
    t = harness.alternate(contenders, rounds)
    row = {
        "label": label,
        "drawn": drawn_nodes(autoviz.draw(ours, **BIG).source),
        "bridge drawn": drawn_nodes(autoviz.draw(theirs, **BIG).source),
        "torchviz drawn": len(re.findall(r"^\t\d+ \[", make_dot(theirs).source, re.M)),
    }
    for name in contenders:
        row[name] = harness.median(harness.column(t[name]))
    for name in ("bridge", "autoviz"):
        row[f"{name} ratio"] = harness.ratios(
            harness.column(t[name]), harness.column(t["torchviz"])
        )
    if frames_of is not None:
        row.update(frame_times(frames_of))
    return row


def frame_times(n_ops: int) -> dict:
    """Stepping the traced chain with its backward: the next frame, and a jump back."""
    with autoviz.trace() as tl:
        chain(autoviz, n_ops).backward()
    start = len(tl) // 3  # late in forward: the backward steps follow
    draw_frame(tl, start, **BIG).svg()  # the one layout, untimed
    steps = iter(range(start + 1, len(tl)))
    count = min(25, len(tl) - start - 1)
    nxt = [harness.clock(lambda: draw_frame(tl, next(steps), **BIG).svg()) for _ in range(count)]
    jumps = iter(range(start, 0, -1))  # going back: the whole frame is recomputed
    jump = [harness.clock(lambda: draw_frame(tl, next(jumps), **BIG).svg()) for _ in range(3)]
    return {"next frame": statistics.median(nxt), "jump": statistics.median(jump)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, sizes up to 1,000")
    parser.add_argument("--sizes", type=int, nargs="+", help=f"node counts (default {SIZES})")
    args = parser.parse_args()
    sys.setrecursionlimit(100_000)  # torchviz walks the graph recursively
    if shutil.which("dot") is None:
        raise SystemExit("benchmarks/render.py needs Graphviz's `dot` on PATH (both libraries)")
    sizes = args.sizes or (SIZES[:3] if args.quick else SIZES)
    rounds = 5 if args.quick else 11
    made = statistics.median(making_the_folder() for _ in range(3))
    print(f"{harness.PINNED}; {rounds} rounds")
    print(f"dot's plugin folder, made once per installed dot: {harness.fmt_time(made)}\n")
    programs = []
    for size in sizes:
        n_ops = (size - 1) // 2
        ours, theirs = chain(autoviz, n_ops), chain(torch, n_ops)
        programs.append((f"chain, {size:,} nodes", ours, theirs, n_ops))
    programs.append(("MLP 784-128-64-10 + loss", mlp(autoviz), mlp(torch), None))
    programs.append(("residual MLP, 20 blocks", residual(autoviz), residual(torch), None))
    print(
        "| program | drawn: autoviz / bridge / torchviz | torchviz: make_dot + dot "
        "| draw(torch tensor) | ratio | draw(autoviz tensor) | ratio | next frame "
        "| frame after a jump |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    targets = harness.Targets("render.py")
    for label, ours, theirs, n_ops in programs:
        few = 3 if n_ops is not None and n_ops > 2000 else rounds
        r = measure(label, ours, theirs, few, n_ops)
        frames = (
            [harness.fmt_time(r["next frame"]), harness.fmt_time(r["jump"])]
            if n_ops is not None
            else ["-", "-"]
        )
        cells = [
            label,
            f"{r['drawn']:,} / {r['bridge drawn']:,} / {r['torchviz drawn']:,}",
            harness.fmt_time(r["torchviz"]),
            harness.fmt_time(r["bridge"]),
            harness.fmt_ratio(r["bridge ratio"]),
            harness.fmt_time(r["autoviz"]),
            harness.fmt_ratio(r["autoviz ratio"]),
            *frames,
        ]
        print("| " + " | ".join(cells) + " |", flush=True)
        targets.ratio(f"autoviz.draw(torch tensor) / torchviz, {label}", r["bridge ratio"], 1.0)
        targets.ratio(f"autoviz.draw(autoviz tensor) / torchviz, {label}", r["autoviz ratio"], 1.0)
    targets.write()


if __name__ == "__main__":
    main()
