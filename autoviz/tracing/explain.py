"""What the stepping views show beside the picture: banner, code panel, explanation, quiz."""

import linecache
import math
from dataclasses import dataclass
from pathlib import Path

from .captions import Context, context_of, flow_rule
from .index import index_of
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


@dataclass(frozen=True)
class Question:
    """A gradient the learner computes before the step reveals it."""

    prompt: str
    answer: float
    rel_tol: float = 1e-3
    abs_tol: float = 1e-4

    def check(self, text: str) -> tuple[bool, str]:
        """Whether `text` is the answer (within tolerance), and a sentence to show."""
        try:
            guess = float(str(text).strip().replace("−", "-"))
        except ValueError:
            return False, f"{str(text).strip()!r} is not a number: type a value such as 2 or 0.5."
        # NaN is close to nothing, itself included: a NaN gradient is answered with "nan".
        both_nan = math.isnan(guess) and math.isnan(self.answer)
        right = both_nan or math.isclose(
            guess, self.answer, rel_tol=self.rel_tol, abs_tol=self.abs_tol
        )
        verdict = "Right" if right else "Not quite"
        return right, f"{verdict}: the answer is {number(self.answer)}."


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
    its function), or the label of the file or notebook cell the rows below come from."""

    file: str
    line: int | None
    text: str
    role: str = "code"


_HEADERS = ("for ", "async for ", "while ", "with ", "async with ", "def ", "async def ")


def code_lines(tl) -> tuple[list, list]:
    """The code panel's rows, each file's in source order under its label, and each step's
    index into them (None for a step without a line). Made once per timeline: the player,
    its panels and its inspector all ask."""
    found = tl.__dict__.get("_code_lines")
    if found is None or len(found[1]) != len(tl.steps):
        found = tl.__dict__["_code_lines"] = _code_lines(tl)
    return found


def _code_lines(tl) -> tuple[list, list]:
    files, lines = {}, {}  # file -> order of first use; (file, line) -> (text, role)
    # Steps made at one place share one Source: each place is read once, in order of first use.
    for source in {id(s.source): s.source for s in tl.steps if s.source is not None}.values():
        src = source
        while src is not None:
            files.setdefault(src.file, len(files))
            role = "code" if src is source else "context"
            if lines.get((src.file, src.line), ("", "context"))[1] != "code":
                lines[(src.file, src.line)] = (src.text, role)
            src = src.caller
    for file, line in [key for key, (_, role) in lines.items() if role == "code"]:
        for row, text in _enclosing(file, line):
            lines.setdefault((file, row), (text, "context"))
    rows, where = [], {}
    labels = _labels(list(files))
    for file in sorted(files, key=files.get):
        if len(files) > 1 or labels[file].startswith("cell"):
            rows.append(CodeLine(file, None, labels[file], "label"))
        for row in sorted(n for f, n in lines if f == file):
            text, role = lines[(file, row)]
            where[(file, row)] = len(rows)
            rows.append(CodeLine(file, row, text, role))
    index = [None if s.source is None else where[(s.source.file, s.source.line)] for s in tl.steps]
    return rows, index


def _enclosing(file: str, line: int) -> list:
    """The loop, `with` and `def` headers that line `line` of `file` sits in, innermost
    first, found by indentation."""
    found, indent = [], None
    for row in range(line, 0, -1):
        text = linecache.getline(file, row)
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        width = len(text) - len(text.lstrip())
        if indent is None:
            indent = width
        elif width < indent:
            indent = width
            if stripped.startswith(_HEADERS):
                found.append((row, stripped))
        if indent == 0:
            break
    return found


def _labels(files: list) -> dict:
    """What each file is called in the panel: a script by its name, a notebook cell (which
    Jupyter runs from a file of its own) as `cell 1`, `cell 2`, … in order of first use."""
    labels, cells = {}, 0
    for file in files:
        name = Path(file).name
        if "ipykernel_" in file or file.startswith("<ipython-input"):
            cells += 1
            labels[file] = f"cell {cells}"
        else:
            labels[file] = name
    return labels


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
    if any(f.shape or f.local is None for f in step.flows):
        root = c.root(step)
        wrt = f"∂{root.name}/∂{out.name}" if root is not None and out is not None else "upstream"
        shape = out.shape if out is not None else ()
        lines.append(f"{op.op}: upstream {wrt} = {value_text(step.details.get('grad'), shape)}")
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
        sent = value_text(flow.contribution, flow.shape)
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
                parts.append(value_text(f.contribution, f.shape))
    total = value_text(flow.total, flow.shape)
    return f" ({target.name} fans out: {' + '.join(parts)} = {total} so far)"


def _reduce_text(tl, c: Context, step) -> str:
    node = c.nodes[step.nodes[0]]
    (flow,) = step.flows
    big, small = tuple(step.details["from_shape"]), tuple(step.details["to_shape"])
    dims = step.details.get("dims", [])
    over = f" over dim {', '.join(map(str, dims))}" if dims else ""
    text = (
        f"{node.name} was broadcast: its gradient {shape_text(big)} summed{over} → "
        f"{shape_text(small)}: {value_text(flow.contribution, small)} → {_arrow(node)}"
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


def quiz(tl, k: int) -> Question | None:
    """The question to ask before step k, when it reveals a scalar gradient."""
    step = tl.steps[k]
    nodes = index_of(tl).by_id
    if step.kind == "accumulate" and isinstance(step.details.get("grad"), float):
        name = nodes[step.nodes[0]].name
        return Question(f"What is {name}.grad after this step?", step.details["grad"])
    scalar = [f for f in step.flows if not f.shape and isinstance(f.contribution, float)]
    if step.kind == "backward" and scalar:
        flow = scalar[0]
        op, target = nodes[step.nodes[0]].op, nodes[tl.edges[flow.edge].source].name
        return Question(
            f"What gradient does {op} send to {target}? (upstream × local)", flow.contribution
        )
    return None


def panels(tl, steps=None) -> list[dict]:
    """Per step (or per step of `steps`, the ones shown): banner, caption, explanation,
    code-line index and quiz, as plain data."""
    _, line_of = code_lines(tl)
    out = []
    for k in range(len(tl.steps)) if steps is None else steps:
        step = tl.steps[k]
        q = quiz(tl, k)
        out.append(
            {
                "phase": step.phase,
                "banner": banner(step, tl),
                "caption": step.caption,
                "explain": explain(tl, k),
                "line": line_of[k],
                "quiz": None
                if q is None
                else {"prompt": q.prompt, "answer": q.answer, "rel": q.rel_tol, "abs": q.abs_tol},
            }
        )
    return out
