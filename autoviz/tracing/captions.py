"""One plain-language sentence per step, written once every node has its name."""

from .model import Step
from .symbols import BINARY, FUNCTIONS
from .text import number, shape_text, value_text


def write_captions(tl) -> None:
    """Fill in `caption` on every step of timeline `tl`."""
    names = {n.id: n for n in tl.nodes}
    for step in tl.steps:
        step.caption = _CAPTIONS[step.kind](step, names, tl)


def _name(names, node_id) -> str:
    return names[node_id].name


def _val(node, value) -> str:
    return value_text(value, node.shape)


def _leaf(step: Step, names, tl) -> str:
    node = names[step.nodes[0]]
    return (
        f"{node.name} is a leaf: a tensor made with requires_grad=True, "
        f"so backward will fill {node.name}.grad."
    )


def _op(step: Step, names, tl) -> str:
    op, out = names[step.nodes[0]], names[step.nodes[1]]
    inputs = [_name(names, tl.edges[e].source) for e in step.edges[:-1]]
    if op.op in BINARY and len(inputs) == 2:
        expr = f"{inputs[0]} {BINARY[op.op]} {inputs[1]}"
    else:
        expr = f"{FUNCTIONS.get(op.op, op.op)}({', '.join(inputs)})"
    return (
        f"{out.name} = {expr} = {_val(out, out.value)} is computed and recorded: "
        f"{out.name}.grad_fn is {op.op}."
    )


def _seed(step: Step, names, tl) -> str:
    out = names[step.nodes[0]]
    if not out.shape:
        grad = number(step.details["grad"])
        return f"Backward starts at {out.name}: d{out.name}/d{out.name} = {grad}."
    return (
        f"Backward starts at {out.name} with the gradient you passed, "
        f"shape {shape_text(out.shape)}."
    )


def _backward(step: Step, names, tl) -> str:
    op = names[step.nodes[0]]
    parts = []
    for flow in step.flows:
        target = _name(names, tl.edges[flow.edge].source)
        if flow.local is not None and not flow.shape:
            part = (
                f"{number(flow.upstream)} × {number(flow.local)} = "
                f"{number(flow.contribution)} to {target}"
            )
        else:
            part = f"a gradient of shape {shape_text(flow.shape)} to {target}"
            if flow.local is not None:
                part += f" (local derivative {value_text(flow.local, flow.shape)})"
        if flow.total is not None:
            total = value_text(flow.total, flow.shape)
            part += f" (its running sum is now {total})"
        parts.append(part)
    if not parts:
        return f"{op.op} runs, but none of its inputs needs a gradient."
    return f"{op.op} applies the chain rule, upstream × local: {'; '.join(parts)}."


def _reduce(step: Step, names, tl) -> str:
    node = names[step.nodes[0]]
    big, small = step.details["from_shape"], step.details["to_shape"]
    return (
        f"{node.name} was broadcast from {shape_text(small)} to {shape_text(big)} going "
        f"forward, so its gradient is summed back to {shape_text(small)}."
    )


def _accumulate(step: Step, names, tl) -> str:
    node = names[step.nodes[0]]
    incoming, total = step.details["incoming"], step.details["grad"]
    if node.kind != "leaf":
        return f"{node.name}.grad keeps {_val(node, total)} because of retain_grad()."
    if not node.shape and isinstance(total, float) and total != incoming:
        before = total - incoming
        return (
            f"{node.name}.grad accumulates: {number(before)} + {number(incoming)} = "
            f"{number(total)}."
        )
    return f"{node.name}.grad is now {_val(node, total)}."


def _free(step: Step, names, tl) -> str:
    return (
        "Backward is done and the graph's saved tensors are freed; "
        "backward through it again needs retain_graph=True."
    )


def _zero_grad(step: Step, names, tl) -> str:
    name = _name(names, step.nodes[0])
    return f"{name}.grad is set to zero, so the next backward starts from 0."


def _set_grad(step: Step, names, tl) -> str:
    name = _name(names, step.nodes[0])
    value = step.changes[0][2]
    return f"{name}.grad is set to {'None' if value is None else 'a new value'}."


def _detach(step: Step, names, tl) -> str:
    new, src = _name(names, step.nodes[0]), _name(names, step.details["from"])
    return f"{new} = {src}.detach() shares {src}'s data but is cut off from the graph."


def _no_grad(step: Step, names, tl) -> str:
    name = _name(names, step.nodes[0])
    return f"{name} is computed under no_grad: nothing is recorded and it needs no gradient."


def _update(step: Step, names, tl) -> str:
    name = _name(names, step.nodes[0])
    return f"{name} is changed in place without being recorded, as an optimizer step does."


def _retain_grad(step: Step, names, tl) -> str:
    name = _name(names, step.nodes[0])
    return f"{name}.retain_grad(): {name}.grad will be kept after backward."


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
    "update": _update,
    "retain_grad": _retain_grad,
}
STEP_KINDS = tuple(_CAPTIONS)
