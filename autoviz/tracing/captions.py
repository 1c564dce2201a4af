"""One plain-language sentence per step, written once every node has its name."""

from bisect import bisect_left, bisect_right

import numpy as np

from .index import index_of
from .model import Step
from .preview import Summary
from .rules import expression, gradient
from .text import number, shape_text, stats, value_text
from .updates import rule_text


def write_captions(tl) -> None:
    """Give every step of timeline `tl` its caption, written when it is first read: a view
    reads the captions of what it shows, so a long run's condensed iterations cost nothing."""
    pending = Pending(tl)
    for step in tl.steps:
        step.caption = pending


class Pending:
    """The writer of a timeline's captions (model.Caption): its Context is made on the first
    caption read."""

    __slots__ = ("context", "tl")

    def __init__(self, tl) -> None:
        self.tl, self.context = tl, None

    def write(self, step: Step) -> str:
        if self.context is None:
            self.context = Context(self.tl)
        return _CAPTIONS[step.kind](step, self.context)


def context_of(tl) -> "Context":
    """The Context of timeline `tl`, made once per index (explanations of every step of a
    long timeline share it, and the seeds it finds per graph)."""
    found = tl.__dict__.get("_context")
    if found is None or found.index is not index_of(tl):
        found = tl.__dict__["_context"] = Context(tl)
    return found


class Context:
    """What captions and explanations read: nodes by id, each op's inputs and output, and
    the state at any step (grads, the output backward started at), all from the timeline's
    index, so a caption can be written for any step in any order."""

    def __init__(self, tl) -> None:
        self.tl, self.index = tl, index_of(tl)
        self.nodes = self.index.by_id
        self.seeds = {}  # graph -> its seed steps, where backward passes started
        self.inputs, self.names = {}, {}  # op id -> its input nodes, their names

    def grad_before(self, node_id: str, k: int):
        """The node's grad just before step k, as the steps so far left it."""
        ks, values = self.index.history.get(node_id, {}).get("grad", ((), ()))
        i = bisect_left(ks, k)
        return values[i - 1] if i else None

    def name(self, node_id: str) -> str:
        return self.nodes[node_id].name

    def input_nodes(self, op_id: str) -> list:
        """The op's inputs, in the order the op takes them (found once per op: an op of
        2,000 inputs sends 2,000 flows, and each one's text names them)."""
        found = self.inputs.get(op_id)
        if found is None:
            all_edges = self.tl.edges
            edges = [all_edges[i] for i in self.index.inputs.get(op_id, ())]
            found = [self.nodes[e.source] for e in sorted(edges, key=lambda e: e.index)]
            self.inputs[op_id] = found
        return found

    def input_names(self, op_id: str) -> list:
        """The names of the op's inputs, in order (once per op)."""
        found = self.names.get(op_id)
        if found is None:
            found = self.names[op_id] = [n.name for n in self.input_nodes(op_id)]
        return found

    def output_of(self, op_id: str):
        """The tensor the op made (None for an op that raised before making one)."""
        for i in self.index.outputs.get(op_id, ()):
            edge = self.tl.edges[i]
            if edge.kind == "data":
                return self.nodes[edge.target]
        return None

    def root(self, step: Step):
        """The output backward started at, in the pass `step` belongs to (None before)."""
        graph = step.details.get("graph", 0)
        seeds = self.seeds.get(graph)
        if seeds is None:
            steps = self.tl.steps
            seeds = [k for k in self.index.graph(graph).steps if steps[k].kind == "seed"]
            self.seeds[graph] = seeds
        i = bisect_right(seeds, step.index)
        return self.nodes[self.tl.steps[seeds[i - 1]].nodes[0]] if i else None


def _val(node, value, grad: bool = False) -> str:
    return value_text(value, node.shape, grad=grad)


def _is_zero(value) -> bool:
    """Whether a recorded gradient is all zeros (or not recorded)."""
    if value is None:
        return True
    s = stats(value, (1,)) if isinstance(value, list | Summary) else None
    return (s.min == s.max == 0 and not s.odd()) if s is not None else value == 0


def _leaf(step: Step, c: Context) -> str:
    node = c.nodes[step.nodes[0]]
    if node.module:
        path, kind = node.module[-1]
        return (
            f"{node.name} is a leaf: a parameter of {path} ({kind}), so backward will fill "
            f"{node.name}.grad."
        )
    return (
        f"{node.name} is a leaf: a tensor made with requires_grad=True, "
        f"so backward will fill {node.name}.grad."
    )


def _op(step: Step, c: Context) -> str:
    op, out = c.nodes[step.nodes[0]], c.nodes[step.nodes[1]]
    expr = expression(op.op, c.input_names(op.id), op.params, out.shape)
    if step.edges:  # which piece of x.split(…)[k]: the number of its edge from the op
        expr = expr.replace("[k]", f"[{c.tl.edges[step.edges[-1]].index}]")
    where = f" in {op.module[-1][0]} ({op.module[-1][1]})" if op.module else ""
    # A value torch made inside one call and kept nowhere readable is said to be unknown.
    value = f" = {_val(out, out.value)}" if out.value is not None else ""
    unknown = "" if value else f" (its value, shape {shape_text(out.shape)}, was not recorded)"
    first = c.output_of(op.id)
    if first is not None and first is not out:  # a later output of an op with several
        return (
            f"{out.name} = {expr}{value} is another output of the same {op.op} node"
            f"{where}{unknown}: {out.name}.grad_fn is the node {first.name} came from, and "
            f"backward will call it once, with the gradients of all its outputs."
        )
    return (
        f"{out.name} = {expr}{value} is computed and recorded{where}{unknown}: "
        f"{out.name}.grad_fn is {op.op}."
    )


def _seed(step: Step, c: Context) -> str:
    out = c.nodes[step.nodes[0]]
    if not out.shape:
        grad = number(step.details["grad"])
        return f"Backward starts at {out.name}: ∂{out.name}/∂{out.name} = {grad}."
    return (
        f"Backward starts at {out.name} with the gradient you passed, "
        f"shape {shape_text(out.shape)}."
    )


def _backward(step: Step, c: Context) -> str:
    op = c.nodes[step.nodes[0]]
    parts, scalar = [], True
    for flow in step.flows:
        edge = c.tl.edges[flow.edge]
        target = c.name(edge.source)
        if flow.local is not None and not flow.shape:
            part = (
                f"{number(flow.upstream)} × {number(flow.local)} = "
                f"{number(flow.contribution)} to {target}"
            )
        else:
            scalar = False
            rule = flow_rule(c, op, edge.index)
            sent = value_text(flow.contribution, flow.shape, grad=True)
            part = f"{target} gets {rule} = {sent}" if rule else f"{target} gets {sent}"
        if flow.total is not None:
            part += f" (its running sum is now {value_text(flow.total, flow.shape, grad=True)})"
        parts.append(part)
    several = step.details.get("grads")
    if several is not None:  # a node with several outputs: one upstream gradient from each
        got = [f"{c.name(i)}'s {value_text(g, c.nodes[i].shape, grad=True)}" for i, g in several]
        got = ", ".join(got[:-1]) + " and " + got[-1] if len(got) > 1 else "".join(got)
        chain = f" and applies the chain rule once: {'; '.join(parts)}" if parts else ""
        return f"{op.op} gets the gradients of its outputs, {got}{chain}."
    if not parts:
        return f"{op.op} runs, but none of its inputs needs a gradient."
    how = ", upstream × local" if scalar else ""
    return f"{op.op} applies the chain rule{how}: {'; '.join(parts)}."


def flow_rule(c: Context, op, index: int) -> str | None:
    """The gradient op sends its input `index`, as a formula over the op's tensors' names."""
    names = c.input_names(op.id)  # once per op: an op of 2,000 inputs sends 2,000 flows
    return rule_for(op, index, c.input_nodes(op.id), c.output_of(op.id), names)


def rule_for(op, index: int, inputs: list, out, names: list | None = None) -> str | None:
    """The same from the op's nodes: its inputs (in order), their names, its output (or None)."""
    count = int(np.prod(inputs[0].shape)) if inputs and inputs[0].shape else None
    names = [n.name for n in inputs] if names is None else names
    rule = gradient(op.op, index, names, out.name if out else "out", "upstream", count, op.params)
    if rule is not None and "rows" in op.params:
        rule += _picked_twice(op.params)
    return rule


def _picked_twice(params: dict) -> str:
    """`; here row 1 was picked 2 times`: the rows an embedding's indices pick more than once."""
    rows, times = params["rows"], params["times"]
    if not rows:
        return "; here every row was picked once"
    listed = ", ".join(
        f"row {r} was picked {n} times" for r, n in zip(rows[:4], times, strict=False)
    )
    return f"; here {listed}" + (", …" if len(rows) > 4 else "")


def _reduce(step: Step, c: Context) -> str:
    node = c.nodes[step.nodes[0]]
    big, small = step.details["from_shape"], step.details["to_shape"]
    dims = step.details.get("dims", [])
    over = f" over dim {', '.join(map(str, dims))}" if dims else ""
    return (
        f"{node.name} was broadcast from {shape_text(small)} to {shape_text(big)} going "
        f"forward, so its gradient {shape_text(big)} is summed{over} back to "
        f"{shape_text(small)}."
    )


def _accumulate(step: Step, c: Context) -> str:
    return _accumulated(step, c) + _shared(step, c)


def _shared(step: Step, c: Context) -> str:
    """What an accumulation did to the grads that are the same memory (torch's buffers)."""
    shared = set(step.details.get("shared", []))
    node = c.nodes[step.nodes[0]]
    return "".join(
        f" {c.nodes[i].name}.grad is the same memory as {node.name}.grad (torch gave both one "
        f"gradient buffer), so it is {_val(c.nodes[i], value, True)} now too."
        for i, _, value in step.changes[1:]
        if i in shared
    )


def _accumulated(step: Step, c: Context) -> str:
    node = c.nodes[step.nodes[0]]
    total = step.details["grad"]
    if node.kind != "leaf":
        return f"{node.name}.grad keeps {_val(node, total, True)} because of retain_grad()."
    before = c.grad_before(node.id, step.index)
    if _is_zero(before):
        return f"{node.name}.grad is now {_val(node, total, True)}."
    if not node.shape and isinstance(total, float) and isinstance(before, (int, float)):
        return (
            f"{node.name}.grad accumulates: {number(before)} + {number(total - before)} = "
            f"{number(total)}."
        )
    return (
        f"{node.name}.grad accumulates: it held {_val(node, before, True)}, and with this "
        f"gradient added it is {_val(node, total, True)}."
    )


def _free(step: Step, c: Context) -> str:
    return (
        "Backward is done and the graph's saved tensors are freed; "
        "backward through it again needs retain_graph=True."
    )


def _zero_grad(step: Step, c: Context) -> str:
    names = [c.name(i) for i in step.nodes]
    if len(names) == 1 and "set_to_none" not in step.details:
        return f"{names[0]}.grad is set to zero, so the next backward starts from 0."
    grads = ", ".join(f"{n}.grad" for n in names)
    if step.details.get("set_to_none", True):
        return f"zero_grad(): {grads} set to None, so the next backward starts afresh."
    return f"zero_grad(): {grads} filled with zeros, so the next backward starts from 0."


def _set_grad(step: Step, c: Context) -> str:
    name = c.name(step.nodes[0])
    value = step.changes[0][2]
    return f"{name}.grad is set to {'None' if value is None else 'a new value'}."


def _detach(step: Step, c: Context) -> str:
    new, src = c.name(step.nodes[0]), c.name(step.details["from"])
    made = f"{src}.detach()" if new == f"{src}.detach()" else f"{new} = {src}.detach()"
    return f"{made} shares {src}'s data but is cut off from the graph: a constant."


def _no_grad(step: Step, c: Context) -> str:
    node = c.nodes[step.nodes[0]]
    return (
        f"{node.name} = {_val(node, node.value)} is computed under no_grad: nothing is "
        "recorded and it needs no gradient."
    )


def _constant(step: Step, c: Context) -> str:
    node = c.nodes[step.nodes[0]]
    sources = [c.name(i) for i in step.details["from"]]
    need = "needs" if len(sources) == 1 else "need"
    return (
        f"{node.name} = {_val(node, node.value)} is computed from {' and '.join(sources)}, "
        f"which {need} no gradient: nothing is recorded and it is a constant."
    )


def _update(step: Step, c: Context) -> str:
    node = c.nodes[step.nodes[0]]
    value = _val(node, step.changes[0][2])
    rule = step.details.get("rule")
    if rule:
        return f"{rule_text(rule, node.name)}: {node.name} is now {value}."
    code = f" ({step.source.text})" if step.source and step.source.text else ""
    return (
        f"{node.name} is changed in place under no_grad{code}, without being recorded: "
        f"it is now {value}."
    )


def _inplace(step: Step, c: Context) -> str:
    node = c.nodes[step.nodes[0]]
    return (
        f"{node.name} is changed in place to {_val(node, step.changes[0][2])}; it needs no "
        "gradient, so nothing is recorded."
    )


def _retain_grad(step: Step, c: Context) -> str:
    name = c.name(step.nodes[0])
    return f"{name}.retain_grad(): {name}.grad will be kept after backward."


def _error(step: Step, c: Context) -> str:
    kind, message = step.details["type"], step.details["message"]
    where = f" at line {step.source.line}" if step.source else ""
    if not step.nodes:
        return f"The program raised {kind}{where}: {message}"
    op = c.nodes[step.nodes[0]]
    if step.changes:  # a backward node that failed
        return f"{op.op} could not run its backward: {kind}{where}: {message}"
    names = c.input_names(op.id)
    symbol = _OPERATORS.get(op.op)
    if symbol and len(names) == 2:
        call = f" {symbol} ".join(names)
    else:
        call = f"{op.op}({', '.join(names)})"
    return f"{call} raised {kind}{where}: {message}"


# The names of ops called with Python's operators, as the program wrote them.
_OPERATORS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "matmul": "@", "pow": "**"}
_OPERATORS.update({"add_": "+=", "sub_": "-=", "mul_": "*=", "div_": "/="})


_CAPTIONS = {
    "leaf": _leaf,
    "op": _op,
    "seed": _seed,
    "backward": _backward,
    "reduce": _reduce,
    "accumulate": _accumulate,
    "free": _free,
    "zero_grad": _zero_grad,
    "set_grad": _set_grad,
    "detach": _detach,
    "no_grad": _no_grad,
    "constant": _constant,
    "update": _update,
    "inplace": _inplace,
    "retain_grad": _retain_grad,
    "error": _error,
}
STEP_KINDS = tuple(_CAPTIONS)
