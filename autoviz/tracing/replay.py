"""Re-running a recorded graph with one leaf nudged: the output's actual change, to set beside
the change its gradient predicts (a central idea of the lesson: a gradient is a slope).

The graph is re-run from its recorded values with numpy, op by op in the order they ran, in
float64; only the ops downstream of the nudged leaf are recomputed. A first run without the
nudge must give back every recorded value (checked), so an op whose arguments the timeline does
not hold is refused rather than re-run wrongly. Where the arguments are one of a few (a
softmax's dim, a loss's reduction, a transpose's axes), the first run takes the first of them,
in the order listed, that gives the recorded value, and the nudged run uses the same. The
player's page re-runs graphs with the same table and the same rules (export/player/js/nudge.js).
"""

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from .index import index_of
from .model import PERSISTENT
from .preview import Summary
from .schema import short
from .text import number


class ReplayError(ValueError):
    """The graph cannot be re-run from what the timeline recorded."""


def _sum_to(x, shape):
    """x summed over the dims the output lacks (the dims are found from the shapes)."""
    shape = tuple(shape)
    if x.shape == shape:
        return x
    if not shape:
        return x.sum()
    for keep in (False, True):
        dims = _summed_dims(x.shape, shape, keep)
        if dims is not None:
            return x.sum(axis=dims, keepdims=keep)
    raise ReplayError(f"a sum from {x.shape} to {shape} over dims the shapes do not tell")


def _summed_dims(big: tuple, small: tuple, keep: bool):
    if keep:
        if len(big) != len(small):
            return None
        dims = tuple(i for i, (a, b) in enumerate(zip(big, small, strict=True)) if a != b)
        return dims if all(small[i] == 1 for i in dims) else None
    # without keepdim: the kept dims, in order, are the output's shape
    for dims in _subsets(len(big), len(big) - len(small)):
        if tuple(n for i, n in enumerate(big) if i not in dims) == small:
            return dims
    return None


def _subsets(n: int, k: int):
    if k < 0:
        return
    if k == 0:
        yield ()
        return
    for first in range(n):
        for rest in _subsets(n - first - 1, k - 1):
            yield (first, *(first + 1 + r for r in rest))


def _mean_to(x, shape):
    """x averaged over the dims the output lacks."""
    return _sum_to(x, shape) * (math.prod(shape) / max(1, x.size))


def _log_softmax(x, dim):
    shifted = x - x.max(axis=dim, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


def _softmax(x, dim):
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def _dims(x):
    """A softmax's dim, in the order tried: the last, then the others from the first."""
    return [-1, *range(x.ndim - 1)] if x.ndim else [-1]


def _reduced(values, shape, how):
    """A loss's elementwise values reduced as `how` says ("mean", "sum", "none")."""
    if how == "none":
        return values
    return values.mean() if how == "mean" else values.sum()


def _reductions(shape):
    return ["mean", "sum"] if not shape else ["none"]


def _nll(logp, target, how):
    rows = np.arange(logp.shape[0])
    return _reduced(-logp[rows, target.astype(int)], (), how)


def _axes(a, shape):
    """A permutation's axes, in the order tried: reversed (a transpose), then the others,
    each giving the output's shape."""
    orders = [tuple(reversed(range(a.ndim))), *itertools.permutations(range(a.ndim))]
    return [p for p in dict.fromkeys(orders) if tuple(a.shape[i] for i in p) == tuple(shape)]


# Op name -> (number of inputs, forward from the inputs and the output's shape). Ops that take
# arguments the timeline does not record assume PyTorch's defaults; the check run catches a
# program that used others. CHOICES: ops whose arguments are one of a few, as (number of
# inputs, the candidates from the inputs and shape, forward from the inputs, shape and one).
OPS = {
    "AddBackward0": (2, lambda a, b, s: a + b),
    "SubBackward0": (2, lambda a, b, s: a - b),
    "RsubBackward1": (2, lambda a, b, s: b - a),
    "MulBackward0": (2, lambda a, b, s: a * b),
    "DivBackward0": (2, lambda a, b, s: a / b),
    "DivBackward1": (2, lambda a, b, s: a / b),
    "NegBackward0": (1, lambda a, s: -a),
    "ExpBackward0": (1, lambda a, s: np.exp(a)),
    "LogBackward0": (1, lambda a, s: np.log(a)),
    "TanhBackward0": (1, lambda a, s: np.tanh(a)),
    "SigmoidBackward0": (1, lambda a, s: 1 / (1 + np.exp(-a))),
    "ReluBackward0": (1, lambda a, s: np.maximum(a, 0)),
    "SinBackward0": (1, lambda a, s: np.sin(a)),
    "CosBackward0": (1, lambda a, s: np.cos(a)),
    "SqrtBackward0": (1, lambda a, s: np.sqrt(a)),
    "AbsBackward0": (1, lambda a, s: np.abs(a)),
    "PowBackward0": (2, lambda a, b, s: a**b),
    "PowBackward1": (2, lambda a, b, s: a**b),
    "PowBackward2": (2, lambda a, b, s: b**a),
    "MmBackward0": (2, lambda a, b, s: a @ b),
    "MvBackward0": (2, lambda a, b, s: a @ b),
    "DotBackward0": (2, lambda a, b, s: a @ b),
    "AddmmBackward0": (3, lambda c, a, b, s: c + a @ b),
    "TBackward0": (1, lambda a, s: a.T),
    "SumBackward0": (1, lambda a, s: a.sum()),
    "SumBackward1": (1, lambda a, s: _sum_to(a, s)),
    "MeanBackward0": (1, lambda a, s: a.mean()),
    "MeanBackward1": (1, lambda a, s: _mean_to(a, s)),
    "ViewBackward0": (1, lambda a, s: a.reshape(s)),
    "UnsafeViewBackward0": (1, lambda a, s: a.reshape(s)),
    "ReshapeAliasBackward0": (1, lambda a, s: a.reshape(s)),
    "CloneBackward0": (1, lambda a, s: a.copy()),
}
CHOICES = {
    "SoftmaxBackward0": (1, lambda a, s: _dims(a), lambda a, s, d: _softmax(a, d)),
    "LogSoftmaxBackward0": (1, lambda a, s: _dims(a), lambda a, s, d: _log_softmax(a, d)),
    "MseLossBackward0": (
        2,
        lambda a, b, s: _reductions(s),
        lambda a, b, s, r: _reduced((a - b) ** 2, s, r),
    ),
    "NllLossBackward0": (2, lambda a, t, s: _reductions(s), lambda a, t, s, r: _nll(a, t, r)),
    "PermuteBackward0": (1, lambda a, s: _axes(a, s), lambda a, s, p: a.transpose(p)),
}


def _finite_number(h) -> bool:
    """A number a float holds (10**400 is not one)."""
    if not isinstance(h, int | float) or isinstance(h, bool):
        return False
    try:
        return math.isfinite(h)
    except OverflowError:
        return False


def nudge(tl, graph: int, node_id: str, h: float, element: tuple = ()) -> dict:
    """Re-run graph `graph` of `tl` with leaf `node_id` (or its element `element`) raised by
    `h`: the output backward ran from, before and after, and how many ops were re-run."""
    if not _finite_number(h):
        digits = len(str(abs(h))) if isinstance(h, int) else 0
        got = f"an integer of {digits} digits" if digits > 20 else short(h)
        raise ReplayError(f"h must be a finite number a float holds, got {got}")
    index = index_of(tl)
    part = index.graph(graph)
    if not part.steps:
        raise ReplayError(f"this timeline has no graph {graph}")
    leaf = index.by_id.get(node_id)
    if leaf is None or leaf.kind != "leaf":
        raise ReplayError(f"only a leaf tensor can be nudged, not {node_id!r}")
    root = _root(tl, part)
    values = {n.id: _start_value(index, part, n) for n in part.nodes}
    ops = _downstream(tl, index, part, node_id)
    chosen = {}  # op id -> the argument the first run found (see CHOICES)
    before = _run(tl, index, ops, dict(values), chosen, check=True)
    if before.get(root.id) is None:
        raise ReplayError(f"{root.name} does not depend on {leaf.name}: nudging it changes nothing")
    start = values[node_id]
    if start is None:
        raise ReplayError(
            f"{leaf.name}'s value was not recorded element by element (a tensor too large to "
            "keep whole)"
        )
    nudged = np.array(start, dtype=float)
    element = tuple(element)
    inside = len(element) == nudged.ndim and all(
        0 <= i < n for i, n in zip(element, nudged.shape, strict=True)
    )
    if not inside:
        raise ReplayError(
            f"element {list(element)} is not one of {leaf.name}'s: its shape is "
            f"{list(nudged.shape)}"
        )
    nudged[element] += h
    after = _run(tl, index, ops, {**values, node_id: nudged}, chosen, check=False)
    out_before, out_after = np.asarray(before[root.id]), np.asarray(after[root.id])
    if out_before.shape:
        raise ReplayError(f"the output {root.name} is not a scalar: its change is a tensor")
    return {
        "output": root.name,
        "before": float(out_before),
        "after": float(out_after),
        "change": float(out_after - out_before),
        "ops": len(ops),
    }


def _root(tl, part):
    for k in part.steps:
        if tl.steps[k].kind == "seed":
            return index_of(tl).by_id[tl.steps[k].nodes[0]]
    tensors = [n for n in part.nodes if n.kind in ("output", "intermediate")]
    if not tensors:
        raise ReplayError("this graph has no output to watch")
    return tensors[-1]


def _start_value(index, part, node):
    """What the graph's forward pass read: a leaf as it stood when the graph began (an
    optimizer may change it later), any other tensor as it was made."""
    value = index.state(node, part.steps[0]).value if node.graph == PERSISTENT else node.value
    return elements(value)


def elements(value):
    """A recorded value's elements as a float64 array, or None: none was recorded, or a
    summary keeps block means rather than every element (its grid with blocks of one element
    is the tensor, row by row, as the page reads it too)."""
    if isinstance(value, Summary):
        if tuple(value.block) != (1, 1) or value.size == 0:
            return None
        return np.asarray(value.grid, dtype=float).reshape(value.shape)
    return None if value is None else np.asarray(value, dtype=float)


def _downstream(tl, index, part, start: str) -> list:
    """The graph's ops that depend on node `start`, in the order they ran."""
    reached, ops = {start}, []
    for node in part.nodes:
        if node.kind != "op":
            continue
        inputs = _inputs(tl, index, node)
        if any(i in reached for i in inputs):
            outs = [tl.edges[e].target for e in index.outputs.get(node.id, ())]
            ops.append((node, inputs, outs))
            reached.update(outs)
    return ops


def _inputs(tl, index, op) -> list:
    edges = [tl.edges[e] for e in index.inputs.get(op.id, ())]
    return [e.source for e in sorted(edges, key=lambda e: e.index)]


def _run(tl, index, ops, values: dict, chosen: dict, check: bool) -> dict:
    """Run `ops` over `values`. The first run (`check`) checks each result against the
    recorded value and notes in `chosen` the argument each op of CHOICES took; the nudged run
    reuses them."""
    for op, inputs, outs in ops:
        arity = _arity(op)
        if len(inputs) != arity or not outs:
            raise ReplayError(f"{op.op}'s inputs are not all in the timeline: cannot re-run it")
        args = []
        for i in inputs:
            if values.get(i) is None:
                raise ReplayError(f"{index.by_id[i].name}'s value was not recorded: cannot re-run")
            args.append(values[i])
        out = index.by_id[outs[0]]
        shape = tuple(out.shape)
        recorded = elements(out.value) if check else None
        with np.errstate(all="ignore"):
            if op.op in CHOICES:
                _, options, forward = CHOICES[op.op]
                run = functools.partial(forward, *args, shape)
                result = _choose(op, options(*args, shape), run, recorded, chosen)
            else:
                result = np.asarray(OPS[op.op][1](*args, shape), dtype=float)
        if recorded is not None and not _agrees(result, recorded):
            raise ReplayError(
                f"re-running {op.op} did not give {out.name}'s recorded value: it used "
                "arguments the timeline does not hold"
            )
        values[out.id] = result
    return values


def _choose(op, options: list, run, recorded, chosen: dict):
    """The result of the argument the first run chose for `op`; choosing, the first option
    that gives the recorded value (the first of all when none was recorded)."""
    if op.id in chosen:
        return np.asarray(run(chosen[op.id]), dtype=float)
    for option in options:
        try:
            result = np.asarray(run(option), dtype=float)
        except (ValueError, IndexError):
            continue
        if recorded is None or _agrees(result, recorded):
            chosen[op.id] = option
            return result
    raise ReplayError(
        f"re-running {op.op} did not give its recorded value with any argument it could take"
    )


def _arity(op) -> int:
    found = OPS.get(op.op) or CHOICES.get(op.op)
    if found is None:
        raise ReplayError(f"{op.op} cannot be re-run from the timeline")
    return found[0]


def _agrees(result, recorded) -> bool:
    recorded = np.asarray(recorded, dtype=float)
    if recorded.shape != result.shape:
        return False
    return bool(np.allclose(result, recorded, rtol=1e-4, atol=1e-6, equal_nan=True))


@dataclass(frozen=True)
class Nudged:
    """A leaf nudged by h: the output's change that ∂out/∂leaf × h predicts (`slope` None when
    backward did not reach the leaf), and its change when the recorded graph is re-run."""

    output: str
    leaf: str
    h: float
    slope: float | None
    before: float
    after: float

    @property
    def predicted(self) -> float | None:
        return None if self.slope is None else self.slope * self.h

    @property
    def change(self) -> float:
        return self.after - self.before

    def __repr__(self) -> str:
        z, w, n = self.output, self.leaf, number
        if self.slope is None:
            first = f"predicted: backward did not reach {w} in this graph"
        else:
            first = (
                f"predicted Δ{z} ≈ ∂{z}/∂{w} × h = {n(self.slope)} × {n(self.h)} = "
                f"{n(self.predicted)}"
            )
        return (
            f"{first}\nactual Δ{z} = {z}({w} + h) − {z}({w}) = {n(self.after, 6)} − "
            f"{n(self.before, 6)} = {n(self.change)}"
        )


def nudged(tl, name: str, h: float = 0.01, element: tuple = (), step: int = -1) -> Nudged:
    """Leaf `name` of the graph of step `step` (or its `element`) raised by h: what its
    gradient predicts the output's change to be, and what re-running the graph gives."""
    index = index_of(tl)
    k = range(len(tl.steps))[step]
    part = index.graph(index.graph_of_step[k])
    leaf = next((n for n in part.nodes if n.kind == "leaf" and n.name == name), None)
    if leaf is None:
        raise ReplayError(f"the graph of step {k} has no leaf called {name!r}")
    element = tuple(element)
    result = nudge(tl, part.number, leaf.id, h, element)
    sent = _sent(tl, part, leaf.id)
    for i in element if sent is not None else ():
        sent = sent[i]
    where = f"{name}{list(element) if element else ''}"
    return Nudged(result["output"], where, h, sent, result["before"], result["after"])


def _sent(tl, part, node_id: str):
    """What the graph's backward pass delivered to leaf `node_id` (∂out/∂leaf), or None."""
    for k in part.steps:
        step = tl.steps[k]
        if step.kind == "accumulate" and step.nodes == [node_id]:
            return step.details.get("incoming")
    return None
