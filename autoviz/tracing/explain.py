"""What the stepping views show beside the picture: banner, code panel, explanation; the
questions come from quiz.py."""

from dataclasses import dataclass
from pathlib import Path

from .captions import Context, context_of, flow_rule
from .index import index_of
from .quiz import questions
from .source import is_header
from .text import is_number, number, shape_text, value_text

BANNERS = {
    "forward": "Forward — building the graph",
    "backward": "Backward — flowing gradients",
    "update": "Update — changing the parameters",
    "error": "Error — the program raised",
}

# Local derivative of an op's output with respect to input i, in the names of the inputs
# (a, b) and the output (out); PyTorch's backward formulas for the elementwise ops.
_LOCAL = {
    "AddBackward0": ("1", "1"),
    "SubBackward0": ("1", "-1"),
    "MulBackward0": ("{b}", "{a}"),
    "DivBackward0": ("1/{b}", "-{a}/{b}²"),
    "NegBackward0": ("-1",),
    "ExpBackward0": ("exp({a}) = {out}",),
    "LogBackward0": ("1/{a}",),
    "TanhBackward0": ("1 - {out}²",),
    "SigmoidBackward0": ("{out}·(1 - {out})",),
    "ReluBackward0": ("1 if {a} > 0 else 0",),
    "SinBackward0": ("cos({a})",),
    "CosBackward0": ("-sin({a})",),
    "SqrtBackward0": ("1/(2·{out})",),
}


def banner(step, tl=None) -> str:
    """The phase banner of a step; in a timeline of several graphs (a training loop's
    iterations), which iteration it belongs to."""
    text = BANNERS[step.phase]
    graphs = _graph_count(tl) if tl is not None else 1
    if graphs > 1:
        text += f" · iteration {step.details.get('graph', 0) + 1:,} of {graphs:,}"
    return text


def _graph_count(tl) -> int:
    return 1 + max(index_of(tl).parts, default=0)


@dataclass(frozen=True)
class CodeLine:
    """A row of the code panel: a line a step points at (`code`), a line shown around them
    for context (`context`: the loop, `with` or `def` a line is in, the call that entered
    its function), a line of the traced block that recorded nothing (`idle`), the label of the
    file or notebook cell the rows below come from (`label`), or lines left out (`gap`)."""

    file: str
    line: int | None
    text: str
    role: str = "code"


def code_lines(tl) -> tuple[list, list]:
    """The code panel's rows, each file's in source order under its label, and each step's
    index into them (None for a step without a line). Made once per timeline: the player,
    its panels and its inspector all ask."""
    found = tl.__dict__.get("_code_lines")
    if found is None or len(found[1]) != len(tl.steps):
        found = tl.__dict__["_code_lines"] = _code_lines(tl)
    return found


def _code_lines(tl) -> tuple[list, list]:
    """The rows from the code the timeline recorded (tl.code), never from a file: the traced
    block's every line as written (`idle` where it recorded nothing), the lines of functions
    it ran (`code`), the headers and calls around them (`context`), and a `gap` row where
    lines are left out; indentation is kept, relative to the least indented row of the file."""
    used, calls = set(), set()  # (file, line) of steps' lines, and of the lines calling them
    for source in {id(s.source): s.source for s in tl.steps if s.source is not None}.values():
        used.add((source.file, source.line))
        src = source.caller
        while src is not None:
            calls.add((src.file, src.line))
            src = src.caller
    texts = list(tl.code) or _from_steps(tl)
    rows, where = [], {}
    for text in texts:
        if len(texts) > 1 or not text.label.endswith(".py"):
            rows.append(CodeLine(text.file, None, text.label, "label"))
        block = range(text.block[0], text.block[1] + 1) if text.block else range(0)
        lines = [(n, t) for n, t in text.lines if t.strip() or n in block]
        indent = min((len(t) - len(t.lstrip()) for _, t in lines if t.strip()), default=0)
        before = None
        for n, line in lines:
            if before is not None and n > before + 1:
                rows.append(CodeLine(text.file, None, "…", "gap"))
            before = n
            key = (text.file, n)
            quiet = n in block and key not in calls and not is_header(line)
            role = "code" if key in used else "idle" if quiet else "context"
            where[key] = len(rows)
            rows.append(CodeLine(text.file, n, line[indent:].rstrip(), role))
    index = [
        None if s.source is None else where.get((s.source.file, s.source.line)) for s in tl.steps
    ]
    return rows, index


def _from_steps(tl) -> list:
    """What a timeline that recorded no code (a version 1 file) has: each step's own line."""
    from .source import CodeText

    by_file = {}
    for step in tl.steps:
        src = step.source
        while src is not None:
            by_file.setdefault(src.file, {})[src.line] = src.text
            src = src.caller
    return [CodeText(f, Path(f).name, sorted(lines.items())) for f, lines in by_file.items()]


def explain(tl, k: int) -> str:
    """The step in words and numbers: for a backward node, one line per edge's chain rule
    (the local rule as PyTorch's derivative formula, the upstream gradient, what is sent)."""
    step = tl.steps[k]
    if step.kind not in ("backward", "reduce") or not step.flows:
        return step.caption
    c = context_of(tl)
    if step.kind == "reduce":
        return _reduce_text(tl, c, step)
    op = c.nodes[step.nodes[0]]
    out = c.output_of(op.id)
    lines = []
    several = step.details.get("grads")
    if several is not None:  # an op with several outputs: an upstream gradient from each
        root = c.root(step)
        for node_id, grad in several:
            got = c.nodes[node_id]
            wrt = f"∂{root.name}/∂{got.name}" if root is not None else f"grad of {got.name}"
            lines.append(f"{op.op}: upstream {wrt} = {value_text(grad, got.shape, grad=True)}")
    elif any(f.shape or f.local is None for f in step.flows):
        root = c.root(step)
        wrt = f"∂{root.name}/∂{out.name}" if root is not None and out is not None else "upstream"
        shape = out.shape if out is not None else ()
        lines.append(
            f"{op.op}: upstream {wrt} = {value_text(step.details.get('grad'), shape, grad=True)}"
        )
    for flow in step.flows:
        lines.append(f"{op.op}: {_flow_text(tl, c, step, op, out, flow)}")
    return "\n".join(lines)


def _flow_text(tl, c: Context, step, op, out, flow) -> str:
    edge = tl.edges[flow.edge]
    target = c.nodes[edge.source]
    arrow = _arrow(target)
    out_name = out.name if out is not None else "out"
    if flow.shape or flow.local is None:
        rule = flow_rule(c, op, edge.index)
        root = c.root(step)
        wrt = f"∂{root.name}/∂{target.name}" if root is not None else f"grad of {target.name}"
        sent = value_text(flow.contribution, flow.shape, grad=True)
        if tuple(flow.shape) != tuple(target.shape):  # broadcast: summed in the next step
            return (
                f"{wrt} before the sum = {rule or 'upstream × local'} = {sent}; {target.name} "
                f"has shape {shape_text(target.shape)}, so the next step sums it"
            )
        text = f"{wrt} = {rule} = {sent} → {arrow}" if rule else f"{wrt} = {sent} → {arrow}"
        return text + _fan_in(tl, c, step, target, flow)
    formula = _formula(c, op, out_name, edge.index)
    local = number(flow.local)
    local_text = local if formula is None or is_number(formula) else f"{formula} = {local}"
    text = (
        f"∂{out_name}/∂{target.name} = {local_text}; "
        f"upstream {number(flow.upstream)} × {local} = {number(flow.contribution)} → {arrow}"
    )
    return text + _fan_in(tl, c, step, target, flow)


def _arrow(target) -> str:
    return f"{target.name}.grad" if target.kind == "leaf" or target.retains_grad else target.name


def _fan_in(tl, c: Context, step, target, flow) -> str:
    """At a fan-out, every contribution the tensor has received in this pass, and their sum."""
    if flow.total is None:
        return ""
    parts = []
    for k in c.index.graph(step.details.get("graph", 0)).steps_until(step.index):
        earlier = tl.steps[k]
        if earlier.kind == "seed":
            parts = []
        for f in earlier.flows:
            arrives = tuple(f.shape) == tuple(target.shape)  # not an op's pre-sum gradient
            if tl.edges[f.edge].source == target.id and arrives:
                parts.append(value_text(f.contribution, f.shape, grad=True))
    total = value_text(flow.total, flow.shape, grad=True)
    return f" ({target.name} fans out: {' + '.join(parts)} = {total} so far)"


def _reduce_text(tl, c: Context, step) -> str:
    node = c.nodes[step.nodes[0]]
    (flow,) = step.flows
    big, small = tuple(step.details["from_shape"]), tuple(step.details["to_shape"])
    dims = step.details.get("dims", [])
    over = f" over dim {', '.join(map(str, dims))}" if dims else ""
    text = (
        f"{node.name} was broadcast: its gradient {shape_text(big)} summed{over} → "
        f"{shape_text(small)}: {value_text(flow.contribution, small, grad=True)} → {_arrow(node)}"
    )
    return text + _fan_in(tl, c, step, node, flow)


def _formula(c: Context, op, out_name: str, index: int) -> str | None:
    return local_rule(op.op, index, c.input_names(op.id), out_name)


def local_rule(op: str, index: int, names: list, out: str) -> str | None:
    """∂out/∂(input `index`) of an elementwise op, over its inputs' and output's `names`
    (or their numbers, to show them plugged in); None for other ops."""
    templates = _LOCAL.get(op)
    if templates is None or index >= len(templates):
        return None
    a = names[0] if names else "a"
    b = names[1] if len(names) > 1 else "b"
    return templates[index].format(a=a, b=b, out=out)


def panels(tl, steps=None, quiz=None) -> list[dict]:
    """Per step (or per step of `steps`, the ones shown): banner, caption, explanation,
    code-line index and the question asked before it (as the player reads it; None where
    none is, and for every step without `quiz`: see quiz.plan_of), as plain data."""
    _, line_of = code_lines(tl)
    shown = range(len(tl.steps)) if steps is None else steps
    asked = questions(tl, quiz, shown) if quiz else {}
    out = []
    for k in shown:
        step = tl.steps[k]
        out.append(
            {
                "phase": step.phase,
                "banner": banner(step, tl),
                "caption": step.caption,
                "explain": explain(tl, k),
                "line": line_of[k],
                "quiz": asked[k].data() if k in asked else None,
            }
        )
    return out
