"""What the player's inspector reads: each node's facts and history, each step's gradient flows,
and where code lines and shared layouts' slots lead (the node card, tooltips, code↔graph links,
the timeline's bands, nudge-and-verify)."""

import math
from bisect import bisect_left

from ..render.heat import SCALE
from ..tracing import explain
from ..tracing.captions import rule_for as flow_rule
from ..tracing.explain import local_rule
from ..tracing.index import index_of
from ..tracing.rules import expression
from ..tracing.symbols import symbol
from ..tracing.text import number, shown

# Digits kept for tensors' heatmap cells (a heatmap and a card need no more); scalars keep all
# of theirs, so nudge-and-verify re-runs the graph on the very numbers the engine had.
ELEMENT_DIGITS = 6
# An edge of a graph the player does not show: empty, as a long run has tens of thousands of
# them (the 2,000-iteration polynomial fit's page was 450 KB of [-1, -1, -1]).
HIDDEN = []


def details(tl, frames, entries: list[int]) -> dict:
    """The inspector's data for the timeline steps `entries` (the player's entries)."""
    p = frames.options.precision
    index = index_of(tl)
    _, line_of = explain.code_lines(tl)
    position = {n.id: i for i, n in enumerate(tl.nodes)}
    locals_ = _locals_sent(tl, p)
    graphs = sorted({index.graph_of_step[k] for k in entries})
    # Only what the shown graphs hold: a 2,000-iteration loop shows three in full, and the
    # page must not carry the other 1,997 (positions stay those of the timeline).
    parts = [index.graph(g) for g in graphs]
    kept = {n.id for part in parts for n in part.nodes}
    kept_edges = {i for part in parts for i in part.edges}
    when = _Shown(sorted(entries))
    nodes = [
        _node(tl, index, n, line_of, locals_, position, when, p) if n.id in kept else {}
        for n in tl.nodes
    ]
    flows, seeds = {}, {}
    for k in entries:
        step = tl.steps[k]
        if step.kind == "seed" and "grad" in step.details:
            seeds[str(k)] = [position[step.nodes[0]], _preview(step.details["grad"], p, True)]
        if step.flows:
            # The upstream gradient is the same for every edge of a step: stored once.
            flows[str(k)] = [
                _preview(step.flows[0].upstream, p, True),
                [_flow(f, p) for f in step.flows],
            ]
    return {
        "nodes": nodes,
        "edges": [
            [position[e.source], position[e.target], e.index] if i in kept_edges else HIDDEN
            for i, e in enumerate(tl.edges)
        ],
        "flows": flows,
        "seeds": seeds,
        "graphs": _runs([index.graph_of_step[k] for k in entries]),
        "roots": {str(g): _root(tl, index, g, position) for g in graphs},
        "aliases": _aliases(frames, graphs, position),
        "scale": {
            key: list(value) if isinstance(value, tuple) else value for key, value in SCALE.items()
        },
    }


class _Shown:
    """Which history entries the player can reach: those some shown step reads."""

    def __init__(self, entries: list[int]) -> None:
        self.entries = entries

    def reads(self, k: int, until: float) -> bool:
        """Whether a shown step lies in [k, until): the state there is the one set at k."""
        i = bisect_left(self.entries, k)
        return i < len(self.entries) and self.entries[i] < until


def _node(tl, index, node, line_of, locals_, position, when, p: int) -> dict:
    """A node's facts, its value and grad as they change, and for an op its formulas."""
    out = {
        "name": node.name,
        "kind": node.kind,
        "shape": list(node.shape),
        "dtype": node.dtype,
        "graph": node.graph,
        "step": node.step,
        "line": line_of[node.step] if 0 <= node.step < len(line_of) else None,
    }
    if node.kind == "op":
        out |= {"op": node.op, "symbol": symbol(node.op)}
        out |= _op_facts(tl, index, node, locals_.get(node.id, {}), position)
        return out
    out |= {
        "requires_grad": node.requires_grad,
        "detached": node.detached,
        "no_grad": node.made_in_no_grad,
        "module": node.module[-1][0] if node.module else None,
        "grad_fn": _grad_fn(tl, index, node),
        "value": _history(index, node, "value", when, p),
        "grad": _history(index, node, "grad", when, p),
        "retains_grad": _history(index, node, "retains_grad", when, p),
    }
    if not any(v for _, v in out["retains_grad"]):
        del out["retains_grad"]
    return _given(out)


def _given(fields: dict) -> dict:
    """The fields that are not None or False: the player reads a missing one so, and a page
    carries one of these per node."""
    return {key: value for key, value in fields.items() if value is not None and value is not False}


def _history(index, node, field: str, when: _Shown, p: int) -> list:
    """[[step, value], ...]: the field as first seen (at the node's step), then each change a
    shown step reads (a parameter changes in every iteration; most are not shown)."""
    grad = field == "grad"
    first = [[node.step, _preview(getattr(node, field), p, grad)]]
    ks, values = index.history.get(node.id, {}).get(field, ([], []))
    ends = [*ks[1:], math.inf][: len(ks)]
    changes = zip(ks, ends, values, strict=True)
    return first + [[k, _preview(v, p, grad)] for k, end, v in changes if when.reads(k, end)]


def _grad_fn(tl, index, node) -> str | None:
    """The op that made a tensor (PyTorch's grad_fn), None for leaves and constants."""
    for i in index.inputs.get(node.id, ()):
        source = index.by_id.get(tl.edges[i].source)
        if source is not None and source.kind == "op":
            return source.op
    return None


NO_GRADIENT = "nothing (requires_grad=False)"


def _op_facts(tl, index, op, sent: dict, position) -> dict:
    """An op's inputs and output, its forward expression and each input's local derivative."""
    ins = sorted((tl.edges[i].index, tl.edges[i].source) for i in index.inputs.get(op.id, ()))
    outs = [tl.edges[i].target for i in index.outputs.get(op.id, ())]
    inputs = [index.by_id[i] for _, i in ins]
    result = index.by_id[outs[0]] if outs else None
    names = [n.name for n in inputs]
    out_name = result.name if result is not None else "out"
    locals_ = []
    # Once per op, not per input: an op may take thousands (torch.stack of every sample).
    scalars = [n for n in inputs if not n.shape] + ([result] if result is not None else [])
    all_scalar = all(_is_scalar(n.value) for n in scalars)
    values = out_value = None
    for i, node in enumerate(inputs):
        formula = local_rule(op.op, i, names, out_name)
        numbers = None
        if formula is not None and all_scalar:
            if values is None:
                values = [_number_in(n.value) for n in inputs]
                out_value = _number_in(result.value) if result is not None else "out"
            numbers = local_rule(op.op, i, values, out_value)
        # Ops on tensors: the gradient the op sends this input, in PyTorch's terms; none to
        # an input that needs none (an embedding's indices, a loss's targets).
        rule = None if formula else flow_rule(op, i, inputs, result, names)
        if not formula and not node.requires_grad:
            rule = NO_GRADIENT
        local = {
            "name": node.name,
            "formula": formula,
            "numbers": numbers,
            "value": sent.get(i),
            "rule": rule,
        }
        locals_.append(_given(local))
    return {
        "inputs": [position[i] for _, i in ins],
        "output": position[outs[0]] if outs else None,
        "expression": expression(op.op, names, op.params, result.shape if result else None),
        "locals": locals_,
    }


def _is_scalar(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number_in(value) -> str:
    """A number as it reads inside a formula: negatives in parentheses (`1 - (-0.5)²`)."""
    text = number(value)
    return f"({text})" if text.startswith("-") else text


def _locals_sent(tl, p: int) -> dict:
    """Op id -> {input index: local derivative}, as the op's first backward computed them."""
    out = {}
    for step in tl.steps:
        if step.kind != "backward" or not step.nodes:
            continue
        found = out.setdefault(step.nodes[0], {})
        for flow in step.flows:
            if flow.local is not None:
                found.setdefault(tl.edges[flow.edge].index, _preview(flow.local, p))
    return out


def _root(tl, index, g: int, position) -> int | None:
    """The tensor graph g's backward ran from (its seed), else its last tensor made."""
    part = index.graph(g)
    for k in part.steps:
        if tl.steps[k].kind == "seed":
            return position[tl.steps[k].nodes[0]]
    tensors = [n for n in part.nodes if n.kind in ("output", "intermediate")]
    return position[tensors[-1].id] if tensors else None


def _aliases(frames, graphs: list, position) -> dict:
    """Graph -> {slot id: timeline node or edge position} for graphs drawn in another graph's
    layout (a loop's later iterations): the SVG's ids are those of the first graph."""
    out = {}
    for g in graphs:
        if frames.leader(g) == g:
            continue
        part = frames.part(g)
        nodes = {slot: position[i] for i, slot in part.slot.items() if slot != i}
        edges = {slot: i for i, slot in part.edge_id.items()}
        out[str(g)] = {"nodes": nodes, "edges": edges}
    return out


def _runs(values: list) -> list:
    """[[first position, value], ...] for each run of equal values."""
    runs = []
    for i, value in enumerate(values):
        if not runs or runs[-1][1] != value:
            runs.append([i, value])
    return runs


def _preview(value, p: int, grad: bool = False):
    """A value as the player shows it (text.shown): a tensor's text and heatmap made here, a
    scalar in full (non-finite ones as strings, which JSON can hold)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        return value
    return shown(value, p, grad, ELEMENT_DIGITS)


def _flow(flow, p: int) -> list:
    """[edge, local, contribution, running sum at a fan-out], the sum left out when none."""
    out = [flow.edge, _preview(flow.local, p), _preview(flow.contribution, p, True)]
    return out if flow.total is None else [*out, _preview(flow.total, p, True)]
