"""What the stepping views show beside the picture: banner, code panel, explanation, quiz."""

import math
from dataclasses import dataclass

from .index import index_of
from .text import number, value_text

BANNERS = {
    "forward": "Forward — building the graph",
    "backward": "Backward — flowing gradients",
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


def banner(step) -> str:
    """The phase banner of a step."""
    return BANNERS[step.phase]


def code_lines(tl) -> tuple[list, list]:
    """The distinct traced source lines in order of first use, and each step's index into them."""
    lines, where, index = [], {}, []
    for step in tl.steps:
        src = step.source
        if src is None:
            index.append(None)
            continue
        key = (src.file, src.line)
        if key not in where:
            where[key] = len(lines)
            lines.append(src)
        index.append(where[key])
    return lines, index


def explain(tl, k: int) -> str:
    """The step in words and numbers: for a backward node, one line per edge's chain rule."""
    step = tl.steps[k]
    if step.kind != "backward" or not step.flows:
        return step.caption
    nodes = index_of(tl).by_id
    op = nodes[step.nodes[0]]
    return "\n".join(f"{op.op}: {_flow_text(tl, nodes, op, flow)}" for flow in step.flows)


def _flow_text(tl, nodes, op, flow) -> str:
    edge = tl.edges[flow.edge]
    target = nodes[edge.source]
    arrow = f"{target.name}.grad" if target.kind == "leaf" or target.retains_grad else target.name
    if flow.shape or flow.local is None:
        grad = value_text(flow.contribution, flow.shape)
        return f"∂{_out_name(tl, nodes, op)}/∂{target.name}: {grad} → {arrow}"
    formula = _formula(tl, nodes, op, edge.index)
    local = number(flow.local)
    local_text = local if formula is None or _is_number(formula) else f"{formula} = {local}"
    text = (
        f"∂{_out_name(tl, nodes, op)}/∂{target.name} = {local_text}; "
        f"upstream {number(flow.upstream)} × {local} = {number(flow.contribution)} → {arrow}"
    )
    if flow.total is not None:  # a fan-out: this input collects from several edges
        text += f" (sum so far {value_text(flow.total, flow.shape)})"
    return text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _out_name(tl, nodes, op) -> str:
    out = index_of(tl).outputs.get(op.id)
    return nodes[tl.edges[out[0]].target].name if out else "out"


def _formula(tl, nodes, op, index: int) -> str | None:
    templates = _LOCAL.get(op.op)
    if templates is None or index >= len(templates):
        return None
    edges = [tl.edges[i] for i in index_of(tl).inputs.get(op.id, ())]
    inputs = {e.index: nodes[e.source].name for e in edges}
    a, b = inputs.get(0, "a"), inputs.get(1, "b")
    return templates[index].format(a=a, b=b, out=_out_name(tl, nodes, op))


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
                "banner": banner(step),
                "caption": step.caption,
                "explain": explain(tl, k),
                "line": line_of[k],
                "quiz": None
                if q is None
                else {"prompt": q.prompt, "answer": q.answer, "rel": q.rel_tol, "abs": q.abs_tol},
            }
        )
    return out
