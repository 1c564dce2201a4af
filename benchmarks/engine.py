"""The autograd engine's speed and memory beside micrograd and PyTorch (CPU), in one run.

    python benchmarks/engine.py            # the full run (about 3 minutes)
    python benchmarks/engine.py --quick    # smaller sizes, fewer repeats (about 30 seconds)

Workloads:
  (a) a scalar expression of 100k nodes mixing *, + and relu over 100 reused leaves, built and
      back-propagated;
  (b) an MLP 784-128-10 on a batch of 64: forward, backward and an SGD step;
  (c) backward through a 1,000,000-node chain `y = y * c + d`, and the peak traced memory per
      node while it is built;
  (d) what the event hook costs on (a): no observer vs a no-op observer registered.

Each library runs in a fresh interpreter of its own, importing only itself: Python's garbage
collector walks every live object now and then, so torch's many objects in the same process
would slow the others. Times are medians of several runs (time.perf_counter; one run of the
1M-node chain, which takes seconds), with the garbage collector on, as users have it, and off
in one extra row for (a). A library that is not installed gets "-" and a note.

Targets: (a) autoviz no slower than micrograd; (b) within 1.5x of torch; (c) memory per node
no more than micrograd's.
"""

import argparse
import gc
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

LEAVES = 100
PEERS = ("micrograd", "torch")


# -- the libraries, behind one small interface ---------------------------------------------------
class Library:
    """How one library makes a scalar leaf, applies relu and runs backward."""

    def __init__(self, name: str) -> None:
        self.name = name
        if name == "autoviz":
            sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
            import autoviz as lib

            self.leaf = lambda v: lib.tensor(v, requires_grad=True)
        elif name == "micrograd":
            from micrograd.engine import Value

            lib = None
            self.leaf = Value
        else:
            import torch as lib

            self.leaf = lambda v: lib.tensor(v, requires_grad=True)
        self.lib = lib

    @staticmethod
    def relu(x):
        return x.relu()

    @staticmethod
    def backward(y) -> None:
        y.backward()


def installed(name: str) -> bool:
    return name == "autoviz" or importlib.util.find_spec(name) is not None


# -- (a) a scalar expression ---------------------------------------------------------------------
def leaf_values(seed=0) -> list:
    """Leaves under 0.45 in size keep every value bounded: |r| <= 0.9 max|r| + 0.45."""
    rng = random.Random(seed)
    return [rng.uniform(-0.45, 0.45) for _ in range(LEAVES)]


def expression(lib: Library, steps: int):
    """`steps` neurons r = relu(a * w + b * v + c), five nodes each, over earlier results.

    a is the latest result, b one of the 50 before it, and w, v, c leaves taken in turn.
    """
    leaves = [lib.leaf(v) for v in leaf_values()]
    results = [leaves[0], leaves[1]]
    relu = lib.relu
    for i in range(steps):
        a = results[-1]
        b = results[-1 - (i * 7) % min(50, len(results))]
        w, v, c = leaves[i % LEAVES], leaves[(i + 33) % LEAVES], leaves[(i + 66) % LEAVES]
        results.append(relu(a * w + b * v + c))
    return results[-1]


def chain(lib: Library, nodes: int):
    """y = y * c + d, two nodes a step, from a leaf y0 with leaves c and d."""
    y, c, d = lib.leaf(1.0), lib.leaf(0.999), lib.leaf(0.001)
    for _ in range(nodes // 2):
        y = y * c + d
    return y


def build_and_backward(lib: Library, build, size: int) -> tuple:
    """Seconds to build a graph and to back-propagate through it."""
    t0 = time.perf_counter()
    y = build(lib, size)
    t1 = time.perf_counter()
    lib.backward(y)
    t2 = time.perf_counter()
    del y
    gc.collect()  # the graph's garbage is not charged to the next run
    return t1 - t0, t2 - t1


def bytes_per_node(lib: Library, nodes: int) -> float:
    """Peak traced memory while the chain is built, divided by its node count."""
    gc.collect()
    tracemalloc.start()
    y = chain(lib, nodes)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del y
    gc.collect()
    return peak / nodes


# -- (b) an MLP training step ------------------------------------------------------------------
def mlp_step_seconds(lib, steps: int, batch=64, sizes=(784, 128, 10)) -> float:
    """Median seconds of forward + backward + SGD on one batch, in autoviz or torch.

    Plain tensors, `x @ W1 + b1`, relu, `@ W2 + b2`, mean squared error: no nn module.
    """
    import numpy as np

    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal((batch, sizes[0])).astype(np.float32))
    y = lib.tensor(rng.standard_normal((batch, sizes[2])).astype(np.float32))
    w1 = lib.tensor(
        (rng.standard_normal(sizes[:2]) / np.sqrt(sizes[0])).astype(np.float32), requires_grad=True
    )
    w2 = lib.tensor(
        (rng.standard_normal(sizes[1:]) / np.sqrt(sizes[1])).astype(np.float32), requires_grad=True
    )
    b1 = lib.zeros(sizes[1], requires_grad=True)
    b2 = lib.zeros(sizes[2], requires_grad=True)
    params = (w1, b1, w2, b2)
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        out = (x @ w1 + b1).relu() @ w2 + b2
        loss = ((out - y) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= 0.01 * p.grad
                p.grad = None
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# -- (d) the event hook ------------------------------------------------------------------------
class NoOpObserver:
    """Listens to every event the engine sends and does nothing: the hook's own cost."""

    def on_leaf(self, *args): ...
    def on_op(self, *args): ...
    def on_untracked(self, *args): ...
    def on_backward_start(self, *args): ...
    def on_node(self, *args): ...
    def on_accumulate(self, *args): ...
    def on_backward_end(self, *args): ...
    def on_detach(self, *args): ...
    def on_zero(self, *args): ...
    def on_inplace(self, *args): ...
    def on_grad_set(self, *args): ...
    def on_retain_grad(self, *args): ...


# -- one measurement, in a fresh interpreter -----------------------------------------------------
def measure(name: str, workload: str, size: int, repeats: int) -> dict:
    """Run in a worker process: times (or bytes) for one library and one workload."""
    lib = Library(name)
    # micrograd sorts the graph recursively: up to one Python frame per node.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5 * size + 10_000))

    def medians(build):
        runs = [build_and_backward(lib, build, size) for _ in range(repeats)]
        return {
            "build": statistics.median(r[0] for r in runs),
            "backward": statistics.median(r[1] for r in runs),
        }

    if workload == "expr":
        return medians(expression)
    if workload == "expr-gc-off":
        gc.disable()
        return medians(expression)
    if workload == "hook":
        # Alternate runs without and with the observer, so both see the same machine load.
        from autoviz.engine import events

        plain, observed, observer = [], [], NoOpObserver()
        for _ in range(repeats):
            plain.append(sum(build_and_backward(lib, expression, size)))
            events.add_observer(observer)
            try:
                observed.append(sum(build_and_backward(lib, expression, size)))
            finally:
                events.remove_observer(observer)
        return {"plain": statistics.median(plain), "observed": statistics.median(observed)}
    if workload == "chain":
        return medians(chain)
    if workload == "memory":
        return {"bytes": bytes_per_node(lib, size)}
    if workload == "mlp":
        return {"step": mlp_step_seconds(lib.lib, size)}
    raise ValueError(workload)


def run_worker(name: str, workload: str, size: int, repeats: int) -> dict | None:
    """`measure` in a new interpreter; None when the library is not installed."""
    if not installed(name):
        return None
    cmd = [sys.executable, __file__, "--worker", name, workload, str(size), str(repeats)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{name} {workload} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


# -- the table -----------------------------------------------------------------------------------
def fmt_time(seconds) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.0f} us"


def fmt_bytes(n) -> str:
    return "-" if n is None else f"{n:.0f} B"


def ratio(a, b) -> str:
    return "-" if a is None or b is None else f"{a / b:.2f}x"


def table(rows: list) -> str:
    """Markdown: one row per measurement, autoviz and each peer, then autoviz / peer."""
    head = ["workload", "autoviz", *PEERS, *(f"autoviz / {p}" for p in PEERS)]
    lines = ["| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"]
    for label, values, fmt in rows:
        cells = [label, fmt(values.get("autoviz"))]
        cells += [fmt(values.get(p)) for p in PEERS]
        cells += [ratio(values.get("autoviz"), values.get(p)) for p in PEERS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        name, workload, size, repeats = args.worker
        print(json.dumps(measure(name, workload, int(size), int(repeats))))
        return

    quick = args.quick
    expr_steps = 2_000 if quick else 20_000  # five nodes a step
    chain_nodes = 100_000 if quick else 1_000_000
    repeats, chain_repeats, mlp_steps = (3, 1, 10) if quick else (5, 1, 50)
    everyone = ("autoviz", *PEERS)
    notes = [f"{p} is not installed: its column is empty" for p in PEERS if not installed(p)]

    expr = {n: run_worker(n, "expr", expr_steps, repeats) for n in everyone}
    expr_gc_off = {n: run_worker(n, "expr-gc-off", expr_steps, repeats) for n in everyone}
    hook = run_worker("autoviz", "hook", expr_steps, repeats)
    mlp = {n: run_worker(n, "mlp", mlp_steps, 0) for n in ("autoviz", "torch")}
    chained = {n: run_worker(n, "chain", chain_nodes, chain_repeats) for n in everyone}
    memory = {n: run_worker(n, "memory", chain_nodes, 0) for n in ("autoviz", "micrograd")}

    def pick(results, key):
        return {n: r[key] for n, r in results.items() if r is not None}

    def total(results):
        return {n: r["build"] + r["backward"] for n, r in results.items() if r is not None}

    nodes = f"{expr_steps * 5 // 1000}k"
    length = f"{chain_nodes // 1000}k" if chain_nodes < 1_000_000 else "1M"
    rows = [
        (f"(a) expression, {nodes} nodes: build", pick(expr, "build"), fmt_time),
        ("(a) backward", pick(expr, "backward"), fmt_time),
        ("(a) build + backward", total(expr), fmt_time),
        ("(a) build + backward, gc disabled", total(expr_gc_off), fmt_time),
        ("(b) MLP 784-128-10, batch 64: one step", pick(mlp, "step"), fmt_time),
        (f"(c) chain, {length} nodes: build", pick(chained, "build"), fmt_time),
        ("(c) backward", pick(chained, "backward"), fmt_time),
        ("(c) peak memory per node", pick(memory, "bytes"), fmt_bytes),
    ]
    print(table(rows))
    print(
        f"\n(d) event hook on (a), build + backward: no observer {fmt_time(hook['plain'])}, "
        f"a no-op observer {fmt_time(hook['observed'])} "
        f"({hook['observed'] / hook['plain']:.2f}x)\n"
    )
    notes += [
        f"medians of {repeats} runs ((c): {chain_repeats}, (b): {mlp_steps} steps); each "
        "library in its own interpreter; garbage collector on except where marked",
        "(b) micrograd: skipped, one step is 6.5 million scalar multiply-adds as Python "
        "objects (minutes)",
        "micrograd's recursive topological sort needs sys.setrecursionlimit(nodes + 10000)",
        "(c) torch keeps its graph in C++ memory that tracemalloc does not see: time only",
    ]
    for note in notes:
        print("note:", note)


if __name__ == "__main__":
    main()
