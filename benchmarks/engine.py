"""The autograd engine's speed and memory beside micrograd and PyTorch (CPU), in one run.

    python benchmarks/engine.py            # the full run (several minutes)
    python benchmarks/engine.py --quick    # smaller sizes, fewer rounds (about a minute)

Workloads:
  (a) a scalar expression of 100k nodes mixing *, + and relu over 100 reused leaves, built and
      back-propagated;
  (b) an MLP 784-128-10 on a batch of 64: forward, backward and an SGD step;
  (c) backward through a 1,000,000-node chain `y = y * c + d`, and the peak traced memory per
      node while it is built;
  (d) what the event hook costs on (a): no observer vs a no-op observer registered.

Each library runs in an interpreter of its own, importing only itself: Python's garbage
collector walks every live object now and then, so torch's many objects in the same process
would slow the others. The three interpreters stay up and take turns, one run each per round in
a rotating order, each run from a collected heap; a ratio is the median of the ratios of each
round's runs, with the middle half of them as its spread. The garbage collector is on, as
users have it, and off in the rows marked so. BLAS and torch run on one thread. A library that
is not installed gets "-" and a note.

Targets: (a) with the collector off, autoviz no slower than micrograd and than torch; (b)
within 1.5x of torch; (c) backward no slower than micrograd's, memory per node no more than
micrograd's.
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

import harness  # before numpy: one BLAS thread

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
            lib = harness.torch()
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


# -- one measurement, in a worker interpreter ----------------------------------------------------
def measure(lib: Library, workload: str, size: int) -> dict:
    """One run of a workload in the worker's library: seconds (or bytes)."""
    gc.enable()
    if workload in ("expr", "expr-gc-off"):
        if workload == "expr-gc-off":
            gc.disable()
        try:
            build, backward = build_and_backward(lib, expression, size)
        finally:
            gc.enable()
        return {"build": build, "backward": backward, "total": build + backward}
    if workload in ("chain", "chain-gc-off"):
        if workload == "chain-gc-off":
            gc.disable()
        try:
            build, backward = build_and_backward(lib, chain, size)
        finally:
            gc.enable()
        return {"build": build, "backward": backward, "total": build + backward}
    if workload == "hook":
        # Without, then with a no-op observer, back to back: the hook's own cost.
        from autoviz.engine import events

        plain = sum(build_and_backward(lib, expression, size))
        observer = NoOpObserver()
        events.add_observer(observer)
        try:
            observed = sum(build_and_backward(lib, expression, size))
        finally:
            events.remove_observer(observer)
        return {"plain": plain, "observed": observed}
    if workload == "memory":
        return {"bytes": bytes_per_node(lib, size)}
    if workload == "mlp":
        return {"step": mlp_step_seconds(lib.lib, size)}
    raise ValueError(workload)


def worker(name: str) -> None:
    """Answer one JSON request per line on stdin: [workload, size] -> the measurement."""
    lib = Library(name)
    # micrograd sorts the graph recursively: up to one Python frame per node.
    sys.setrecursionlimit(2_000_000)
    for line in sys.stdin:
        workload, size = json.loads(line)
        print(json.dumps(measure(lib, workload, size)), flush=True)


class Worker:
    """A library's interpreter, kept up for the whole run."""

    def __init__(self, name: str) -> None:
        self.name = name
        cmd = [sys.executable, __file__, "--worker", name]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def run(self, workload: str, size: int) -> dict:
        self.proc.stdin.write(json.dumps([workload, size]) + "\n")
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.name} worker stopped during {workload}")
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def rounds(workers: dict, workload: str, size: int, n: int, warmup: int = 1) -> dict:
    """Each worker's measurements of `workload`, run in turn in a rotating order per round."""
    names = list(workers)
    results = {name: [] for name in names}
    for r in range(warmup + n):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            result = workers[name].run(workload, size)
            if r >= warmup:
                results[name].append(result)
    return results


# -- the table -----------------------------------------------------------------------------------
def fmt_bytes(n) -> str:
    return "-" if n is None else f"{n:.0f} B"


def cells(results: dict, key: str, fmt) -> list:
    """autoviz's and each peer's median, then autoviz / each peer as a paired ratio."""
    ours = [r[key] for r in results.get("autoviz", [])]
    out = [fmt(statistics.median(ours)) if ours else "-"]
    peers = {p: [r[key] for r in results.get(p, [])] for p in PEERS}
    out += [fmt(statistics.median(v)) if v else "-" for v in peers.values()]
    for theirs in peers.values():
        paired_ = harness.ratios(ours, theirs) if theirs and ours else None
        out.append(harness.fmt_ratio(paired_) if paired_ else "-")
    return out


def paired(results: dict, key: str, peer: str) -> list:
    ours, theirs = results.get("autoviz"), results.get(peer)
    if not ours or not theirs:
        return []
    return harness.ratios([r[key] for r in ours], [r[key] for r in theirs])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few rounds")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker)

    quick = args.quick
    expr_steps = 4_000 if quick else 20_000  # five nodes a step
    chain_nodes = 200_000 if quick else 1_000_000
    n, chain_n, mlp_steps = (5, 3, 10) if quick else (9, 3, 50)
    notes = [
        f'{p} is not installed: its column is empty (to install it: pip install -e ".[bench]")'
        for p in PEERS
        if not installed(p)
    ]
    workers = {name: Worker(name) for name in ("autoviz", *PEERS) if installed(name)}
    try:
        expr = rounds(workers, "expr", expr_steps, n)
        expr_off = rounds(workers, "expr-gc-off", expr_steps, n)
        chained = rounds(workers, "chain", chain_nodes, chain_n, warmup=0)
        chained_off = rounds(workers, "chain-gc-off", chain_nodes, chain_n, warmup=0)
        two = {k: w for k, w in workers.items() if k in ("autoviz", "torch")}
        mlp = rounds(two, "mlp", mlp_steps, 3)
        hook = rounds({"autoviz": workers["autoviz"]}, "hook", expr_steps, n)["autoviz"]
        memory = {k: [w.run("memory", chain_nodes)] for k, w in workers.items() if k != "torch"}
    finally:
        for w in workers.values():
            w.close()

    nodes = f"{expr_steps * 5 // 1000}k"
    length = f"{chain_nodes // 1000}k" if chain_nodes < 1_000_000 else "1M"
    rows = [
        (f"(a) expression, {nodes} nodes: build", expr, "build", harness.fmt_time),
        ("(a) backward", expr, "backward", harness.fmt_time),
        ("(a) build + backward", expr, "total", harness.fmt_time),
        ("(a) build + backward, gc off", expr_off, "total", harness.fmt_time),
        ("(b) MLP 784-128-10, batch 64: one step", mlp, "step", harness.fmt_time),
        (f"(c) chain, {length} nodes: build", chained, "build", harness.fmt_time),
        ("(c) backward", chained, "backward", harness.fmt_time),
        ("(c) backward, gc off", chained_off, "backward", harness.fmt_time),
        ("(c) peak memory per node", memory, "bytes", fmt_bytes),
    ]
    head = ["workload", "autoviz", *PEERS, *(f"autoviz / {p}" for p in PEERS)]
    print(f"{harness.PINNED}; {n} rounds ((c): {chain_n}, (b): 3 of {mlp_steps} steps)\n")
    print("| " + " | ".join(head) + " |")
    print("|---" + "|---:" * (len(head) - 1) + "|")
    for label, results, key, fmt in rows:
        print("| " + " | ".join([label, *cells(results, key, fmt)]) + " |")
    plain = [h["plain"] for h in hook]
    observed = [h["observed"] for h in hook]
    print(
        f"\n(d) event hook on (a), build + backward: no observer "
        f"{harness.fmt_time(statistics.median(plain))}, a no-op observer "
        f"{harness.fmt_time(statistics.median(observed))} "
        f"({harness.fmt_ratio(harness.ratios(observed, plain))})\n"
    )
    notes += [
        "ratios: medians of the ratios of runs made back to back, with their middle half",
        "(b) micrograd: skipped, one step is 6.5 million scalar multiply-adds as Python "
        "objects (minutes)",
        "micrograd's recursive topological sort needs sys.setrecursionlimit raised",
        "(c) torch keeps its graph in C++ memory that tracemalloc does not see: time only",
    ]
    for note in notes:
        print("note:", note)

    targets = harness.Targets("engine.py")
    for peer in PEERS:
        ratios_ = paired(expr_off, "total", peer)
        if ratios_:
            targets.ratio(f"(a) {nodes}-node expression, gc off: autoviz / {peer}", ratios_, 1.0)
    for key, label in (("backward", "backward"), ("total", "build + backward")):
        ratios_ = paired(chained, key, "micrograd")
        if ratios_:
            targets.ratio(f"(c) {length}-node chain {label}: autoviz / micrograd", ratios_, 1.0)
    ratios_ = paired(mlp, "step", "torch")
    if ratios_:
        targets.ratio("(b) MLP step: autoviz / torch", ratios_, 1.5)
    if memory.get("micrograd"):
        mem = memory["autoviz"][0]["bytes"] / memory["micrograd"][0]["bytes"]
        targets.add("(c) memory per node: autoviz / micrograd", mem, 1.0)
    targets.write()


if __name__ == "__main__":
    main()
