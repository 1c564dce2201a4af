"""The autograd engine's speed and memory beside micrograd and PyTorch (CPU), in one run.

    python benchmarks/engine.py            # the full run (about 2-3 minutes)
    python benchmarks/engine.py --quick    # smaller sizes, fewer repeats (a few seconds)

Workloads:
  (a) a scalar expression of ~100k nodes mixing *, + and relu over 100 reused leaves,
      built and back-propagated;
  (b) an MLP 784-128-10 on a batch of 64: forward, backward and an SGD step;
  (c) backward through a 1,000,000-node chain `y = y * c + d`, with the peak traced memory
      per node while it is built;
  (d) what the event hook costs on (a): no observer vs a no-op observer registered.

Every time is the median of several runs (time.perf_counter). A peer that is not installed
gets an empty column and a note. Targets: (a) autoviz no slower than micrograd; (b) within
1.5x of torch; (c) memory per node no more than micrograd's.
"""

import argparse
import gc
import importlib.util
import random
import statistics
import sys
import time
import tracemalloc

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))

import autoviz  # noqa: E402
from autoviz.engine import events  # noqa: E402

HAVE_MICROGRAD = importlib.util.find_spec("micrograd") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None
if HAVE_MICROGRAD:
    from micrograd.engine import Value
if HAVE_TORCH:
    import torch

    torch.set_num_threads(1)  # autoviz's numpy calls are mostly small; compare like with like

LEAVES = 100


# -- engines: the same code, over three kinds of scalar --------------------------------------
class Engine:
    """How one library makes a scalar leaf, applies relu and runs backward."""

    def __init__(self, name, leaf, relu, backward):
        self.name, self.leaf, self.relu, self.backward = name, leaf, relu, backward


def _engines() -> dict:
    engines = {
        "autoviz": Engine(
            "autoviz",
            lambda v: autoviz.tensor(v, requires_grad=True),
            lambda x: x.relu(),
            lambda y: y.backward(),
        )
    }
    if HAVE_MICROGRAD:
        engines["micrograd"] = Engine(
            "micrograd", Value, lambda x: x.relu(), lambda y: y.backward()
        )
    if HAVE_TORCH:
        engines["torch"] = Engine(
            "torch",
            lambda v: torch.tensor(v, requires_grad=True),
            lambda x: x.relu(),
            lambda y: y.backward(),
        )
    return engines


# -- (a) a scalar expression -------------------------------------------------------------
def leaf_values(seed=0) -> list:
    """Leaves below 0.45 in size keep every value bounded: |r| <= 0.9 max|r| + 0.45."""
    rng = random.Random(seed)
    return [rng.uniform(-0.45, 0.45) for _ in range(LEAVES)]


def expression(engine, steps: int):
    """`steps` neurons r = relu(a * w + b * v + c), five nodes each, over earlier results.

    a is the latest result, b one from up to 50 steps back, w, v, c leaves taken in turn.
    """
    leaves = [engine.leaf(v) for v in leaf_values()]
    results = [leaves[0], leaves[1]]
    relu = engine.relu
    for i in range(steps):
        a = results[-1]
        b = results[-1 - (i * 7) % min(50, len(results))]
        w, v, c = leaves[i % LEAVES], leaves[(i + 33) % LEAVES], leaves[(i + 66) % LEAVES]
        results.append(relu(a * w + b * v + c))
    return results[-1]


def run_expression(engine, steps: int) -> tuple:
    """Seconds to build the expression and to back-propagate through it."""
    t0 = time.perf_counter()
    y = expression(engine, steps)
    t1 = time.perf_counter()
    engine.backward(y)
    t2 = time.perf_counter()
    del y
    gc.collect()
    return t1 - t0, t2 - t1


def median_runs(fn, repeats: int) -> tuple:
    """Run `fn` (returning a tuple of seconds) `repeats` times; medians of each element."""
    gc.collect()
    runs = [fn() for _ in range(repeats)]
    return tuple(statistics.median(r[i] for r in runs) for i in range(len(runs[0])))


# -- (b) an MLP training step ---------------------------------------------------------------
def mlp_step_seconds(lib, steps: int, batch=64, sizes=(784, 128, 10)) -> float:
    """Median seconds of forward + backward + SGD over one batch, for autoviz or torch."""
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    y_np = rng.standard_normal((batch, sizes[2])).astype(np.float32)
    w1_np = (rng.standard_normal(sizes[:2]) / np.sqrt(sizes[0])).astype(np.float32)
    w2_np = (rng.standard_normal(sizes[1:]) / np.sqrt(sizes[1])).astype(np.float32)
    x, y = lib.tensor(x_np), lib.tensor(y_np)
    w1, w2 = lib.tensor(w1_np, requires_grad=True), lib.tensor(w2_np, requires_grad=True)
    b1 = lib.zeros(sizes[1], requires_grad=True)
    b2 = lib.zeros(sizes[2], requires_grad=True)
    params = (w1, b1, w2, b2)
    lr = 0.01
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        out = (x @ w1 + b1).relu() @ w2 + b2
        loss = ((out - y) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= lr * p.grad
                p.grad = None
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# -- (c) a long chain --------------------------------------------------------------------
def chain(engine, nodes: int):
    """y = y * c + d, two nodes a step, from a leaf y0 with leaves c, d."""
    y, c, d = engine.leaf(1.0), engine.leaf(0.999), engine.leaf(0.001)
    for _ in range(nodes // 2):
        y = y * c + d
    return y


def run_chain(engine, nodes: int) -> tuple:
    t0 = time.perf_counter()
    y = chain(engine, nodes)
    t1 = time.perf_counter()
    engine.backward(y)
    t2 = time.perf_counter()
    del y
    gc.collect()
    return t1 - t0, t2 - t1


def bytes_per_node(engine, nodes: int) -> float:
    """Peak traced memory while the chain is built, divided by its node count."""
    gc.collect()
    tracemalloc.start()
    y = chain(engine, nodes)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del y
    gc.collect()
    return peak / nodes


# -- (d) the event hook ----------------------------------------------------------------------
class NoOpObserver:
    """Listens to every event and does nothing: what tracing costs before any work."""

    def on_leaf(self, *args): ...
    def on_op(self, *args): ...
    def on_node(self, *args): ...
    def on_accumulate(self, *args): ...
    def on_backward_end(self, *args): ...
    def on_detach(self, *args): ...
    def on_zero(self, *args): ...


# -- the table -------------------------------------------------------------------------------
def fmt_time(seconds) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.0f} us"


def ratio(a, b) -> str:
    return "-" if a is None or b is None else f"{a / b:.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    args = parser.parse_args()
    quick = args.quick
    steps_a = 2_000 if quick else 20_000  # five nodes a step: 10k / 100k nodes
    repeats = 3 if quick else 5
    chain_nodes = 100_000 if quick else 1_000_000
    chain_repeats = 1 if quick else 3
    mlp_steps = 10 if quick else 50
    # micrograd's backward sorts the graph recursively: one Python frame per node on a path.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), chain_nodes * 2 + 10_000))

    engines = _engines()
    notes = []
    if not HAVE_MICROGRAD:
        notes.append("micrograd not installed (pip install micrograd): its column is empty")
    if not HAVE_TORCH:
        notes.append("torch not installed (pip install torch): its column is empty")
    rows = []  # (label, {engine: value}, formatter)

    nodes_a = steps_a * 5
    exp = {
        name: median_runs(lambda e=e: run_expression(e, steps_a), repeats)
        for name, e in engines.items()
    }
    rows.append((f"(a) expr {nodes_a // 1000}k nodes: build", {k: v[0] for k, v in exp.items()}))
    rows.append(("(a) backward", {k: v[1] for k, v in exp.items()}))
    rows.append(("(a) total", {k: v[0] + v[1] for k, v in exp.items()}))

    mlp = {"autoviz": mlp_step_seconds(autoviz, mlp_steps)}
    if HAVE_TORCH:
        mlp["torch"] = mlp_step_seconds(torch, mlp_steps)
    rows.append(("(b) MLP 784-128-10 b64 step", mlp))
    notes.append(
        "(b) micrograd skipped: one step is ~6.5M scalar multiply-adds as Python objects "
        "(minutes per step)"
    )

    ch = {
        name: median_runs(lambda e=e: run_chain(e, chain_nodes), chain_repeats)
        for name, e in engines.items()
    }
    label = f"{chain_nodes // 1000}k" if chain_nodes < 1_000_000 else "1M"
    rows.append((f"(c) chain {label} nodes: build", {k: v[0] for k, v in ch.items()}))
    rows.append(("(c) backward", {k: v[1] for k, v in ch.items()}))
    mem = {n: bytes_per_node(e, chain_nodes) for n, e in engines.items() if n != "torch"}
    notes.append(
        "(c) torch keeps its graph in C++ memory that tracemalloc does not see: time only"
    )

    observer = NoOpObserver()
    events.add_observer(observer)
    try:
        traced = median_runs(lambda: run_expression(engines["autoviz"], steps_a), repeats)
    finally:
        events.remove_observer(observer)
    plain = exp["autoviz"]

    peers = [p for p in ("micrograd", "torch")]
    header = f"{'workload':<32} {'autoviz':>10}" + "".join(f" {p:>10}" for p in peers)
    header += "".join(f" {'vs ' + p:>13}" for p in peers)
    print(header)
    print("-" * len(header))
    for label, values in rows:
        line = f"{label:<32} {fmt_time(values.get('autoviz')):>10}"
        line += "".join(f" {fmt_time(values.get(p)):>10}" for p in peers)
        line += "".join(f" {ratio(values.get('autoviz'), values.get(p)):>13}" for p in peers)
        print(line)
    line = f"{'(c) memory per node (bytes)':<32} {mem['autoviz']:>10.0f}"
    line += "".join(f" {mem[p]:>10.0f}" if p in mem else f" {'-':>10}" for p in peers)
    line += "".join(
        f" {ratio(mem['autoviz'], mem[p]):>13}" if p in mem else f" {'-':>13}" for p in peers
    )
    print(line)
    print()
    print(f"(d) event hook on (a), build + backward: no observer {fmt_time(sum(plain))}, ", end="")
    print(f"no-op observer {fmt_time(sum(traced))} ({sum(traced) / sum(plain):.2f}x)")
    print()
    print(
        f"medians of {repeats} runs ((c): {chain_repeats}); micrograd needs "
        f"sys.setrecursionlimit({sys.getrecursionlimit()}) for its recursive topological sort"
    )
    for note in notes:
        print("note:", note)


if __name__ == "__main__":
    main()
