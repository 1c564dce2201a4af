"""Which questions a timeline asks, and where: each kind's question made from the recorded
step (every answer the program's own number at that step), a teacher's own questions, and the
plan that picks some of them (how many, of what kinds, how far apart)."""

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .captions import Context, flow_rule
from .mistakes import mistake
from .preview import Summary
from .questions import Question
from .text import is_number, number, shape_text

# The kinds of question, in the order `--quiz kinds=` lists them; "teacher" is a teacher's own
# (Timeline.add_question), asked whatever the plan.
KINDS = (
    "scalar",
    "shape",
    "element",
    "sign",
    "zero",
    "broadcast",
    "outputs",
    "which-grad",
    "accumulation",
    "update",
    "teacher",
)
MAX_OPTIONS = 8  # tensors a which-grad question lists
SIGNS = ("positive", "negative", "zero")
YES_NO = ("yes", "no")
ZERO_GRAD = ("None", "zeros", "unchanged")


@dataclass(frozen=True)
class QuizPlan:
    """Which questions to ask: at most `count` (None: every one there is), of `kinds`, and no
    two closer than `every` steps."""

    count: int | None = None
    kinds: tuple = KINDS
    every: int = 1

    def __post_init__(self) -> None:
        if self.count is not None and (not _natural(self.count)):
            raise ValueError(f"quiz count must be a number of questions >= 0, got {self.count!r}")
        if not _natural(self.every) or self.every < 1:
            raise ValueError(f"quiz every must be a number of steps >= 1, got {self.every!r}")
        kinds = (self.kinds,) if isinstance(self.kinds, str) else tuple(self.kinds)
        for kind in kinds:
            if kind not in KINDS:
                raise ValueError(f"unknown quiz kind {kind!r} (must be one of {list(KINDS)})")
        object.__setattr__(self, "kinds", kinds)


def _natural(n) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n >= 0


def plan_of(quiz) -> QuizPlan | None:
    """The plan a `quiz=` argument asks for: True (every question), False (none), a QuizPlan,
    or a dict of its fields (`{"count": 6, "kinds": ["shape", "element"], "every": 2}`)."""
    if quiz is None or quiz is False:
        return None
    if quiz is True:
        return QuizPlan()
    if isinstance(quiz, QuizPlan):
        return quiz
    if isinstance(quiz, dict):
        unknown = [key for key in quiz if key not in ("count", "kinds", "every")]
        if unknown:
            raise ValueError(
                f"unknown quiz option {unknown[0]!r} (must be one of ['count', 'kinds', 'every'])"
            )
        return QuizPlan(**{k: v for k, v in quiz.items() if v is not None})
    raise TypeError(
        "quiz must be True or False, or a dict such as {'count': 6, 'kinds': ['shape']} "
        f"(or a QuizPlan), got {quiz!r}"
    )


def parse_plan(text: str, every: int | None = None) -> QuizPlan:
    """`--quiz`'s text: a number of questions (or `all`), then `kinds=a,b,…`, `count=N`,
    `every=N`, separated by commas; empty for every question."""
    fields, key = {}, None
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part:
            key, part = (s.strip() for s in part.split("=", 1))
            if key not in ("count", "kinds", "every"):
                raise ValueError(
                    f"--quiz: unknown option {key!r} (must be one of ['count', 'kinds', 'every'])"
                )
            fields.setdefault(key, [])
        if key is None:
            key = "count"
            fields.setdefault(key, [])
        fields[key].append(part)
    plan = {}
    for key, values in fields.items():
        if key == "kinds":
            plan["kinds"] = tuple(v for v in values if v)
        else:
            plan[key] = _plan_number(key, values)
    if every is not None:
        plan["every"] = every
    return QuizPlan(**plan)


def _plan_number(key: str, values: list):
    if len(values) != 1 or not (values[0].isdigit() or (key == "count" and values[0] == "all")):
        raise ValueError(
            f"--quiz: {key} takes one number{' or all' if key == 'count' else ''}, "
            f"got {','.join(values)!r}"
        )
    return None if values[0] == "all" else int(values[0])


def questions(tl, quiz=True, steps=None) -> dict:
    """{step: Question} for the steps in `steps` (default: all), as plan `quiz` picks them:
    each step asks at most one, of the kind asked least so far, and what was asked once (the
    same kind of question about the same tensor: its shape, its update in the next
    iteration) is not asked again."""
    plan = plan_of(quiz)
    if plan is None or not tl.steps:
        return {}
    c = Context(tl)
    chosen, used, seen, last = {}, Counter(), set(), None
    for k in range(len(tl.steps)) if steps is None else steps:
        own = teacher_questions(tl, k)
        if own:
            chosen[k] = own[0]
            continue
        if last is not None and k - last < plan.every:
            continue
        offered = [q for q in candidates(tl, k, c) if q.kind in plan.kinds]
        offered = [q for q in offered if _topic(q, c) not in seen]
        if not offered:
            continue
        best = min(offered, key=lambda q: used[q.kind])  # first of the least asked kind
        chosen[k], last = best, k
        used[best.kind] += 1
        seen.add(_topic(best, c))
    return chosen if plan.count is None else _spread(chosen, plan.count)


def _topic(q: Question, c: Context) -> tuple:
    """What a question is about: its kind, the fact, and the tensors' names (an iteration's
    tensors are new nodes, but the same names)."""
    if len(q.about) < 2:
        return q.kind, q.prompt
    ids = q.about[1] if isinstance(q.about[1], tuple) else (q.about[1],)
    return q.kind, q.about[0], tuple(sorted(c.nodes[i].name for i in ids))


def _spread(chosen: dict, count: int) -> dict:
    """`count` of the chosen questions (a teacher's always among them): as many kinds as
    there are, each kind's spread over the timeline."""
    own = {k: q for k, q in chosen.items() if q.kind == "teacher"}
    by_kind = {}
    for k, q in chosen.items():
        if q.kind != "teacher":
            by_kind.setdefault(q.kind, []).append(k)
    quota, left = dict.fromkeys(by_kind, 0), max(0, count - len(own))
    while left and any(quota[kind] < len(ks) for kind, ks in by_kind.items()):
        for kind, ks in by_kind.items():
            if left and quota[kind] < len(ks):
                quota[kind] += 1
                left -= 1
    kept = dict(own)
    for kind, ks in by_kind.items():
        n = quota[kind]
        for i in range(n):
            k = ks[round(i * (len(ks) - 1) / (n - 1))] if n > 1 else ks[0]
            kept[k] = chosen[k]
    return dict(sorted(kept.items()))


def candidates(tl, k: int, c: Context | None = None) -> list:
    """Every question step k could ask, the best first (teacher's questions aside)."""
    c = c or Context(tl)
    step = tl.steps[k]
    make = _BY_STEP_KIND.get(step.kind)
    found = make(tl, step, c) if make else []
    return [_at(q, k) for q in found if q is not None]


def _at(q: Question, k: int) -> Question:
    object.__setattr__(q, "step", k)
    return q


# -- a teacher's own questions ------------------------------------------------------------------


def add_question(tl, step: int, prompt: str, answer, *, hint=None, why=None, choices=None):
    """Ask `prompt` before step `step` shows (see Timeline.add_question); returns the Question.

    Stored in the step (and so in the timeline's JSON): a number, a shape (a tuple of ints),
    text, one of `choices`, or several of them (a list).
    """
    k = tl._step_index(step)
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError("a question needs a prompt: the text the learner reads")
    record = {"prompt": prompt, "answer": _stored(answer)}
    for key, value in (("hint", hint), ("why", why)):
        if value is not None:
            if not isinstance(value, str):
                raise TypeError(f"{key} must be text, not {type(value).__name__}")
            record[key] = value
    if choices is not None:
        if isinstance(choices, str) or not all(isinstance(o, str) for o in choices):
            raise TypeError("choices must be a list of strings, such as ['yes', 'no']")
        record["choices"] = list(choices)
    question = teacher_question(record, k)  # checks the answer fits the choices
    if tl.steps[k].details.get("questions"):
        raise ValueError(f"step {k} has a question of yours already: the player asks one a step")
    tl.steps[k].details["questions"] = [record]
    return question


def _stored(answer):
    if isinstance(answer, bool) or answer is None:
        raise TypeError(
            f"answer {answer!r}: give a number, a shape tuple, text, or one of `choices` "
            "(for yes or no: choices=['yes', 'no'], answer='yes')"
        )
    if isinstance(answer, int | float | str):
        return answer
    if isinstance(answer, tuple | list | set | frozenset):
        return list(answer)
    item = getattr(answer, "item", None)  # a one-element tensor
    if callable(item):
        return float(item())
    raise TypeError(f"answer of type {type(answer).__name__}: give a number, a tuple, or text")


def teacher_question(record: dict, k: int) -> Question:
    """A teacher's stored question as a Question: its form follows from the answer."""
    answer, choices = record["answer"], tuple(record.get("choices", ()))
    if choices:
        form = "choices" if isinstance(answer, list) else "choice"
    elif isinstance(answer, list):
        form = "shape"
    else:
        form = "number" if isinstance(answer, int | float) else "text"
    if choices and form == "choice" and answer not in choices:
        raise ValueError(f"answer {answer!r} is not one of the choices {list(choices)}")
    if form == "choices" and not set(answer) <= set(choices):
        raise ValueError(f"answer {answer!r} is not among the choices {list(choices)}")
    return Question(
        record["prompt"],
        answer,
        kind="teacher",
        form=form,
        options=choices,
        hint=record.get("hint", ""),
        why=record.get("why", ""),
        step=k,
        about=("teacher",),
    )


def teacher_questions(tl, k: int) -> list:
    return [teacher_question(r, k) for r in tl.steps[k].details.get("questions", ())]


# -- helpers on recorded values ------------------------------------------------------------------


class Known:
    """The elements of a recorded value the quiz can ask about: every element of a small
    tensor, the first ones (row-major) of a large one's Summary, the number of a scalar."""

    def __init__(self, value) -> None:
        self.full = type(value) is not Summary
        if not self.full:
            self.shape, self.flat, self.summary = tuple(value.shape), _floats(value.head), value
            return
        self.summary = None
        arr = None if value is None else _floats(value)
        self.shape = () if arr is None else arr.shape
        self.flat = None if arr is None else arr.reshape(-1)

    def __bool__(self) -> bool:
        return self.flat is not None and self.flat.size > 0

    def at(self, index: tuple, shape: tuple | None = None) -> float | None:
        """The element at `index` of a tensor of `shape` (this value's; a scalar value is every
        element's), or None where it is not known."""
        if not self:
            return None
        if not self.shape:
            return float(self.flat[0])
        if shape is not None and tuple(shape) != self.shape:
            return None
        i = int(np.ravel_multi_index(index, self.shape)) if index else 0
        return float(self.flat[i]) if i < self.flat.size else None

    def index(self, i: int) -> tuple:
        return tuple(int(n) for n in np.unravel_index(i, self.shape)) if self.shape else ()

    def largest(self) -> tuple:
        """The index of the known element of largest magnitude (the first, on a tie)."""
        return self.index(int(np.argmax(np.abs(self.flat))))

    def uniform(self) -> float | None:
        """The one number every element is, if they all are (a Summary's exact min and max)."""
        if self.summary is not None:
            s = self.summary
            return float(s.min) if s.min == s.max and not (s.nan or s.pinf or s.ninf) else None
        return float(self.flat[0]) if self and np.all(self.flat == self.flat[0]) else None

    def nonzero(self) -> bool:
        if self.summary is not None:
            return not (self.summary.min == self.summary.max == 0)
        return bool(self) and bool(np.any(self.flat))


def _floats(value):
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None


def _index_text(index: tuple) -> str:
    return f"[{', '.join(map(str, index))}]" if index else ""


def _sign(value: float) -> str:
    return "positive" if value > 0 else "negative" if value < 0 else "zero"


def _close(a, b) -> bool:
    return bool(np.isclose(a, b, rtol=1e-3, atol=1e-4))


def _named(node) -> bool:
    return bool(node.name) and not is_number(node.name)


def _number_question(prompt, answer, kind, wrong=(), **fields) -> Question:
    """A number question; known mistakes that give the right answer anyway are left out."""
    mistakes = tuple(
        (value, name, hint)
        for value, name, hint in wrong
        if value is not None and np.isfinite(value) and not _close(value, answer)
    )
    return Question(prompt, answer, kind=kind, mistakes=mistakes, **fields)


# -- backward: what an op sends ------------------------------------------------------------------


def _backward(tl, step, c: Context) -> list:
    op = c.nodes[step.nodes[0]]
    several = step.details.get("grads") or ()
    first = [_runs_once(c, op, several)] if len(several) > 1 else []
    return first + _sent(tl, step, c, op)


def _runs_once(c: Context, op, several: list) -> Question:
    """A node of several outputs runs once, with all their gradients, not once per output."""
    names = [c.name(node_id) for node_id, _ in several]
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    n = len(names)
    return _number_question(
        f"{listed} are outputs of one {op.op} node, and each sends it a gradient. How many "
        "times does its backward run in this pass?",
        1,
        "outputs",
        [(n, "runs-per-output", mistake("runs-per-output", op=op.op, names=listed))],
        hint=f"Backward runs a node when every gradient it waits for has arrived: {listed}'s.",
        why=(
            f"Once: the engine counts the {n} edges into {op.op} and runs it after the last "
            f"gradient arrives, with {listed}'s gradients together."
        ),
        about=("runs", op.id),
    )


def _sent(tl, step, c: Context, op) -> list:
    """What the op sends its inputs: one question of each kind, where the step has one."""
    scalar = [f for f in step.flows if not f.shape and isinstance(f.contribution, float)]
    if scalar:
        return [_scalar_flow(tl, step, c, op, scalar[0])]
    targets = Counter(tl.edges[f.edge].source for f in step.flows)
    # One tensor fed to the op twice (h * h) gets two gradients: asked about as its sum, later.
    flows = [f for f in step.flows if f.shape and targets[tl.edges[f.edge].source] == 1]
    # Leaves first: their gradient is the one the program keeps.
    flows.sort(key=lambda f: c.nodes[tl.edges[f.edge].source].kind != "leaf")
    found = []
    for make in (_element_flow, _zero_flow, _sign_flow, _shape_flow):
        found.append(next((q for f in flows if (q := make(tl, step, c, op, f))), None))
    return found


def _flow_facts(tl, c, op, flow) -> tuple:
    edge = tl.edges[flow.edge]
    return c.nodes[edge.source], edge.index, Known(flow.contribution)


def _scalar_flow(tl, step, c, op, flow) -> Question:
    target, index, _ = _flow_facts(tl, c, op, flow)
    rule = flow_rule(c, op, index)
    wrong = []
    if isinstance(flow.local, float) and not _close(flow.upstream, 1.0):
        hint = mistake("local-without-upstream", upstream=number(flow.upstream))
        wrong.append((flow.local, "local-without-upstream", hint))
    if isinstance(flow.local, float) and not _close(flow.local, 1.0):
        hint = mistake("upstream-without-local", local=number(flow.local))
        wrong.append((flow.upstream, "upstream-without-local", hint))
    return _number_question(
        f"What gradient does {op.op} send to {target.name}? (upstream × local)",
        flow.contribution,
        "scalar",
        wrong,
        hint="Multiply the upstream gradient by the local derivative"
        + (f": {target.name} gets {rule}." if rule else "."),
        about=("sent", target.id, ()),
    )


def _operands(c, op, index: tuple, shape: tuple, k: int) -> list:
    """`name[i] = v` for the op's inputs and output of the flow's shape, as they stood."""
    out = c.output_of(op.id)
    facts = []
    for node in [*c.input_nodes(op.id), *([out] if out is not None else [])]:
        if tuple(node.shape) == tuple(shape) and _named(node):
            value = Known(c.index.state(node, k).value).at(index, shape)
            if value is not None:
                facts.append(f"{node.name}{_index_text(index)} = {number(value)}")
    return list(dict.fromkeys(facts))[:3]


def _element_flow(tl, step, c, op, flow) -> Question | None:
    target, index_no, sent = _flow_facts(tl, c, op, flow)
    if not sent or sent.shape != tuple(target.shape):
        return None
    if flow.local is None:
        return _uniform_flow(tl, step, c, op, flow, target, sent)
    index = sent.largest()
    value = sent.at(index)
    up = Known(flow.upstream).at(index, flow.shape)
    local = Known(flow.local).at(index, flow.shape)
    if up is None or local is None:
        return None
    at = _index_text(index)
    facts = [f"the upstream gradient there is {number(up)}"]
    facts += _operands(c, op, index, flow.shape, step.index)
    rule = flow_rule(c, op, index_no)
    wrong = []
    if not _close(up, 1.0):
        wrong.append(
            (
                local,
                "local-without-upstream",
                mistake("local-without-upstream", upstream=number(up)),
            )
        )
    if not _close(local, 1.0):
        wrong.append(
            (up, "upstream-without-local", mistake("upstream-without-local", local=number(local)))
        )
    return _number_question(
        f"What is element {at} of the gradient {op.op} sends to {target.name}? "
        f"({'; '.join(facts)})",
        value,
        "element",
        wrong,
        hint=f"{target.name} gets {rule or 'upstream × local'}: work it out at element {at}.",
        why=f"Upstream {number(up)} × local {number(local)} = {number(value)}.",
        about=("sent", target.id, index),
    )


def _uniform_flow(tl, step, c, op, flow, target, sent) -> Question | None:
    """Sum and mean send every element the same: what is it?"""
    if op.op not in ("SumBackward0", "MeanBackward0") or not isinstance(flow.upstream, float):
        return None
    value = sent.uniform()
    if value is None:
        return None
    n, up = int(np.prod(sent.shape)), flow.upstream
    wrong = []
    if op.op == "MeanBackward0" and n > 1:
        wrong.append((up, "mean-without-n", mistake("mean-without-n", n=n)))
    how = "upstream / n, n its number of elements" if op.op == "MeanBackward0" else "upstream"
    return _number_question(
        f"What is each element of the gradient {op.op} sends to {target.name}? "
        f"({target.name} has {n:,} elements; the upstream gradient is {number(up)})",
        value,
        "element",
        wrong,
        hint=f"{op.op} sends each element {how}.",
        about=("sent", target.id, (0,) * len(flow.shape)),
    )


def _zero_flow(tl, step, c, op, flow) -> Question | None:
    """Is an element of what a mask (relu, where, clamp, max) sends zero?"""
    target, _, sent = _flow_facts(tl, c, op, flow)
    up = Known(flow.upstream)
    if not sent or sent.shape != tuple(target.shape) or not up:
        return None
    if up.shape and up.shape != sent.shape:
        return None
    n = sent.flat.size if not up.shape else min(sent.flat.size, up.flat.size)
    ups = up.flat[:n] if up.shape else np.full(n, up.flat[0])
    values = sent.flat[:n]
    blocked = (values == 0) & (ups != 0)  # zero because of the op, not of what came in
    passed = values != 0
    if not blocked.any() or not passed.any():
        return None
    zero = step.index % 2 == 0  # ask about a blocked element on every other such step
    i = int(np.argmax(blocked if zero else passed))
    index, value = sent.index(i), float(values[i])
    at = _index_text(index)
    local = Known(flow.local).at(index, flow.shape)
    operands = _operands(c, op, index, flow.shape, step.index)
    why = f"{'; '.join(operands)}, so " if operands else ""
    if local is not None:
        why += f"the local derivative there is {number(local)}: "
    why += f"{number(float(ups[i]))} × {number(local) if local is not None else 'local'} = "
    why += f"{number(value)}."
    answer, wrong = ("yes", "no") if zero else ("no", "yes")
    name = "mask-passes" if zero else "mask-blocks"
    return Question(
        f"Is element {at} of the gradient {op.op} sends to {target.name} zero?",
        answer,
        kind="zero",
        form="choice",
        options=YES_NO,
        hint=f"Look at {op.op}'s local derivative at element {at}: is it 0 there?",
        why=why[:1].upper() + why[1:],
        mistakes=((wrong, name, mistake(name, op=op.op, why=why)),),
        about=("sent_zero", target.id, index),
    )


def _sign_flow(tl, step, c, op, flow) -> Question | None:
    target, index_no, sent = _flow_facts(tl, c, op, flow)
    if not sent or sent.shape != tuple(target.shape) or not np.any(sent.flat):
        return None
    index = sent.largest()
    value = sent.at(index)
    rule = flow_rule(c, op, index_no)
    return Question(
        f"Is element {_index_text(index)} of the gradient {op.op} sends to {target.name} "
        "positive, negative or zero?",
        _sign(value),
        kind="sign",
        form="choice",
        options=SIGNS,
        hint=f"{target.name} gets {rule or 'upstream × local'}: a product's sign is the "
        "product of its factors' signs.",
        why=f"It is {number(value)}.",
        about=("sent_sign", target.id, index),
    )


def _shape_flow(tl, step, c, op, flow) -> Question | None:
    target, _, _ = _flow_facts(tl, c, op, flow)
    if tuple(flow.shape) != tuple(target.shape):  # a broadcast: summed at the next step
        return None
    out = c.output_of(op.id)
    return _shape_question(
        f"What shape is the gradient {op.op} sends to {target.name}?",
        target,
        extra=[(tuple(out.shape), "output-shape")] if out is not None else [],
        about=("shape", target.id),
    )


def _shape_question(prompt, node, extra=(), **fields) -> Question:
    shape = tuple(node.shape)
    wrong = []
    if len(shape) == 2 and shape[0] != shape[1]:
        wrong.append((shape[::-1], "transposed-shape", mistake("transposed-shape")))
    for other, name, *facts in extra:
        if other != shape and other not in [w[0] for w in wrong]:
            wrong.append((other, name, facts[0] if facts else mistake(name)))
    return Question(
        prompt,
        shape,
        kind="shape",
        form="shape",
        hint=f"A gradient has the shape of the tensor it is for: look at {node.name}'s box.",
        mistakes=tuple(wrong),
        **fields,
    )


# -- the broadcast sum ---------------------------------------------------------------------------


def _reduce(tl, step, c) -> list:
    node = c.nodes[step.nodes[0]]
    big, small = tuple(step.details["from_shape"]), tuple(step.details["to_shape"])
    dims = tuple(step.details.get("dims", ()))
    facts = dict(
        name=node.name, big=shape_text(big), small=shape_text(small), dims=", ".join(map(str, dims))
    )
    forgot = mistake("forgot-broadcast-sum", **facts)
    found = [_reduce_dims(node, big, small, dims, facts)] if dims else []
    found.append(
        Question(
            f"{node.name} was broadcast from {shape_text(small)} to {shape_text(big)} going "
            f"forward. What shape is its gradient once summed back?",
            small,
            kind="broadcast",
            form="shape",
            hint=f"A gradient has the shape of the tensor it is for: {node.name}'s.",
            mistakes=((big, "forgot-broadcast-sum", forgot),),
            about=("shape", node.id),
        )
    )
    found.append(_reduce_element(step, node, big, small, forgot))
    return found


def _reduce_dims(node, big, small, dims, facts) -> Question:
    wrong = []
    for d in range(len(big)):
        if (d,) != dims:
            shape = big[:d] + big[d + 1 :]
            hint = mistake("wrong-broadcast-dim", dim=d, shape=shape_text(shape), **facts)
            wrong.append(((d,), "wrong-broadcast-dim", hint))
    return Question(
        f"{node.name} has shape {shape_text(small)}, but the gradient arriving for it has "
        f"shape {shape_text(big)}: it was broadcast going forward. Over which dimension of "
        f"{shape_text(big)} is that gradient summed?",
        dims,
        kind="broadcast",
        form="dims",
        ndim=len(big),
        hint=f"Which dimensions of {shape_text(big)} did {node.name} not have, or have as 1?",
        why=f"Summed over {facts['dims'] and 'dim ' + facts['dims']}: {shape_text(big)} → "
        f"{shape_text(small)}, {node.name}'s shape.",
        mistakes=tuple(wrong),
        about=("dims", node.id),
    )


def _reduce_element(step, node, big, small, forgot) -> Question | None:
    (flow,) = step.flows
    summed, upstream = Known(flow.contribution), Known(flow.upstream)
    if not (summed.full and upstream.full and summed and upstream):
        return None  # the elements summed into one are not all recorded
    if upstream.shape != big or summed.shape != small:
        return None
    index = summed.largest()
    summed, upstream = summed.flat.reshape(small), upstream.flat.reshape(big)
    one = np.zeros(small)
    one[index] = 1.0
    copies = upstream[np.broadcast_to(one, big) == 1.0]  # the elements summed into it
    wrong = [(float(v), "forgot-broadcast-sum", forgot) for v in dict.fromkeys(copies[:3])]
    return _number_question(
        f"{node.name} was broadcast from {shape_text(small)} to {shape_text(big)}. Once the "
        f"gradient of shape {shape_text(big)} is summed back, what is its element "
        f"{_index_text(index) or '(the only one)'}?",
        float(summed[index]),
        "broadcast",
        wrong,
        hint=f"Add up the {copies.size} elements of the arriving gradient that were copies of "
        f"{node.name}{_index_text(index)}.",
        why=f"{' + '.join(number(float(v)) for v in copies[:6])}"
        f"{' + …' if copies.size > 6 else ''} = {number(float(summed[index]))}.",
        about=("grad_sum", node.id, index),
    )


# -- accumulate: what lands in .grad -------------------------------------------------------------


def _accumulate(tl, step, c) -> list:
    node = c.nodes[step.nodes[0]]
    total, incoming = step.details["grad"], step.details.get("incoming")
    before = c.grad_before(node.id, step.index)
    held = before is not None and Known(before).nonzero()
    if not node.shape:
        if not isinstance(total, float):
            return []
        return [_scalar_grad(tl, step, c, node, total, incoming, before if held else None)]
    total_k, incoming_k = Known(total), Known(incoming)
    found = []
    if held and total_k and incoming_k:
        found.append(_accumulated(node, total_k, incoming_k, Known(before)))
    found.append(_grad_shape(tl, step, c, node))
    return found


def _scalar_grad(tl, step, c, node, total, incoming, before) -> Question:
    if before is not None:
        hint = mistake("forgot-accumulation", name=node.name, before=number(before))
        return _number_question(
            f"{node.name}.grad holds {number(before)} from an earlier backward. What is "
            f"{node.name}.grad after this step?",
            total,
            "accumulation",
            [(incoming, "forgot-accumulation", hint)],
            hint=f"What happens to what {node.name}.grad already held?",
            about=("grad", node.id, ()),
        )
    parts = _arrivals(tl, step, c, node)
    wrong = []
    if len(parts) > 1:
        hint = mistake("one-path-only", name=node.name, parts=" + ".join(map(number, parts)))
        wrong = [(p, "one-path-only", hint) for p in parts]
    return _number_question(
        f"What is {node.name}.grad after this step?",
        total,
        "scalar",
        wrong,
        hint=f"{node.name}.grad gets the sum of what every path sends {node.name}.",
        about=("grad", node.id, ()),
    )


def _arrivals(tl, step, c, node) -> list:
    """The scalar contributions that reached `node` in this backward pass, in order."""
    found = []
    for k in c.index.graph(step.details.get("graph", 0)).steps_until(step.index):
        earlier = tl.steps[k]
        if earlier.kind == "seed":
            found = []
        for f in earlier.flows:
            if tl.edges[f.edge].source == node.id and isinstance(f.contribution, float):
                found.append(f.contribution)
    return found


def _accumulated(node, total, incoming, before) -> Question | None:
    index = total.largest()
    at = _index_text(index)
    held, brought, now = (k.at(index, total.shape) for k in (before, incoming, total))
    if None in (held, brought, now):
        return None
    hint = mistake("forgot-accumulation", name=node.name, before=f"{number(held)} at {at}")
    return _number_question(
        f"{node.name}.grad still holds an earlier backward's gradient ({node.name}.grad{at} = "
        f"{number(held)}), and this backward brings {node.name}{at} {number(brought)}. What "
        f"is {node.name}.grad{at} after this step?",
        now,
        "accumulation",
        [(brought, "forgot-accumulation", hint)],
        hint=f"What happens to what {node.name}.grad already held?",
        why=f"{number(held)} + {number(brought)} = {number(now)}: backward adds to .grad.",
        about=("grad", node.id, index),
    )


def _grad_shape(tl, step, c, node) -> Question:
    summed = [
        tuple(tl.steps[k].details["from_shape"])
        for k in c.index.graph(step.details.get("graph", 0)).steps_until(step.index)
        if tl.steps[k].kind == "reduce" and tl.steps[k].nodes[0] == node.id
    ]
    extra = []
    if summed:
        facts = dict(
            name=node.name,
            big=shape_text(summed[-1]),
            small=shape_text(node.shape),
            dims="the broadcast dims",
        )
        extra = [(summed[-1], "forgot-broadcast-sum", mistake("forgot-broadcast-sum", **facts))]
    return _shape_question(
        f"What shape is {node.name}.grad after backward?", node, extra, about=("shape", node.id)
    )


# -- before backward: which tensors get a .grad --------------------------------------------------


def _seed(tl, step, c) -> list:
    root = c.nodes[step.nodes[0]]
    graph = step.details.get("graph", 0)
    part = c.index.graph(graph)
    end = _pass_end(tl, part, step.index)
    nodes = [n for n in part.nodes if n.kind != "op" and n.step <= step.index and _named(n)]
    nodes = _listed(list({n.name: n for n in nodes}.values()), c, end)
    if len(nodes) < 2:
        return []
    has = {n.id for n in nodes if has_grad(tl, c, n, end)}
    options = tuple(n.name for n in nodes)
    reasons = tuple(
        (n.name, name, mistake(name, name=n.name))
        for n in nodes
        if (name := _grad_reason(tl, n, n.id in has, c, step.index, end))
    )
    got = [n.name for n in nodes if n.id in has]
    none = [n.name for n in nodes if n.id not in has]
    why = f"{', '.join(none)} {'stays' if len(none) == 1 else 'stay'} None: " if none else ""
    why += (
        "backward keeps the gradients of leaves that require grad, and of tensors that "
        "called retain_grad()."
    )
    return [
        Question(
            f"Backward is about to run from {root.name}. Which of these tensors have a .grad "
            "(not None) once it is done?",
            tuple(got),
            kind="which-grad",
            form="choices",
            options=options,
            hint="Backward keeps .grad only for some kinds of tensor: which kinds?",
            why=why,
            mistakes=reasons,
            about=("has_grad", tuple(n.id for n in nodes), end),
        )
    ]


def _pass_end(tl, part, k: int) -> int:
    """The last step of the backward pass that starts at seed step k."""
    later = [s for s in part.steps if s > k]
    for s in later:
        if tl.steps[s].kind == "seed" or tl.steps[s].phase != "backward":
            return s - 1
    return later[-1] if later else k


def _listed(nodes: list, c, end: int) -> list:
    """At most MAX_OPTIONS tensors, every kind of answer among them, in creation order."""
    if len(nodes) <= MAX_OPTIONS:
        return nodes

    def rank(n):
        if n.kind == "leaf":
            return 0
        if n.retains_grad or c.index.state(n, end).retains_grad:
            return 1
        if n.kind == "output" or n.detached:
            return 2
        return 3 if not n.requires_grad else 4

    keep = set(n.id for n in sorted(nodes, key=rank)[:MAX_OPTIONS])
    return [n for n in nodes if n.id in keep]


def has_grad(tl, c, node, k: int) -> bool:
    """Whether `node`'s .grad is a tensor (not None) after step k, from what the steps did to
    it: a big tensor's grad is recorded without its numbers, so a None value says nothing."""
    ks, values = c.index.history.get(node.id, {}).get("grad", ((), ()))
    i = bisect_right(ks, k)
    if not i:
        return node.grad is not None
    step = tl.steps[ks[i - 1]]
    if step.kind == "accumulate":
        return True
    if step.kind == "zero_grad":  # zero_grad(set_to_none=False) and .grad.zero_() keep zeros
        return not step.details.get("set_to_none", False)
    return values[i - 1] is not None


def _grad_reason(tl, node, has: bool, c, k: int, end: int) -> str | None:
    """Which known mistake getting this tensor wrong would be (backward from step k to end)."""
    if has:
        if node.kind == "leaf":
            ks = c.index.history.get(node.id, {}).get("grad", ((), ()))[0]
            reached = any(k < s <= end and tl.steps[s].kind == "accumulate" for s in ks)
            return "missed-leaf" if reached else "missed-earlier-grad"
        return "missed-retain-grad"
    if node.detached:
        return "grad-on-detached"
    if not node.requires_grad:
        return "grad-without-requires-grad"
    return "grad-on-non-leaf" if node.kind != "leaf" else None


# -- zero_grad and the optimizer step ------------------------------------------------------------


def _zero_grad(tl, step, c) -> list:
    node_id, field, _ = step.changes[0] if step.changes else (None, None, None)
    if field != "grad" or not has_grad(tl, c, c.nodes[node_id], step.index - 1):
        return []  # already None: "unchanged" would be right too
    name = c.name(node_id)
    code = step.source.text.strip() if step.source and step.source.text else "zero_grad()"
    answer = "None" if step.details.get("set_to_none", False) else "zeros"
    wrong = {"None": "zero-grad-to-none", "zeros": "zero-grad-to-zeros"}
    mistakes = [(o, n, mistake(n)) for o, n in wrong.items() if o != answer]
    mistakes.append(("unchanged", "zero-grad-unchanged", mistake("zero-grad-unchanged")))
    return [
        Question(
            f"{code} runs next. What is {name}.grad after it?",
            answer,
            kind="accumulation",
            form="choice",
            options=ZERO_GRAD,
            hint="Why would a training loop call it before each backward?",
            why=f"{name}.grad is {answer} after it, so the next backward starts afresh.",
            mistakes=tuple(mistakes),
            about=("grad_reset", node_id),
        )
    ]


def _update(tl, step, c) -> list:
    node = c.nodes[step.nodes[0]]
    rule = step.details.get("rule")
    before = c.index.state(node, step.index - 1)
    new, old, grad = (Known(v) for v in (step.changes[0][2], before.value, before.grad))
    if not (new and old and grad) or not (new.shape == old.shape == grad.shape):
        return []
    lr = _plain_sgd(rule)
    if rule and lr is None:
        return []  # momentum, weight decay, Adam: more than one element's arithmetic
    index = grad.largest()
    at = _index_text(index)
    w, g, answer = (k.at(index) for k in (old, grad, new))
    if None in (w, g, answer):
        return []
    name = node.name
    wrong = [(w, "update-unchanged", mistake("update-unchanged", name=name))]
    if lr is not None:
        how = f"{rule['optimizer']} (lr = {number(lr)}) steps {name} ← {name} − lr × grad"
        wrong.append((w + lr * g, "update-added", mistake("update-added", name=name)))
        if not _close(lr, 1.0):
            wrong.append((w - g, "update-without-lr", mistake("update-without-lr", lr=number(lr))))
        why = f"{number(w)} − {number(lr)} × {number(g)} = {number(answer)}."
    else:
        code = step.source.text.strip() if step.source and step.source.text else "an update"
        how = f"`{code}` changes {name} under no_grad"
        wrong.append((2 * w - answer, "update-added", mistake("update-added", name=name)))
        why = f"{name}{at} goes from {number(w)} to {number(answer)}."
    return [
        _number_question(
            f"{how}. {name}{at} is {number(w)} and {name}.grad{at} is {number(g)}: what is "
            f"{name}{at} after this step?",
            answer,
            "update",
            wrong,
            hint="Move against the gradient: subtract the learning rate times the gradient.",
            why=why,
            about=("value", node.id, index),
        )
    ]


def _plain_sgd(rule) -> float | None:
    """The learning rate of an SGD step without momentum or weight decay, else None."""
    if not rule or rule.get("optimizer") != "SGD" or rule.get("maximize"):
        return None
    if rule.get("momentum") or rule.get("weight_decay") or not isinstance(rule.get("lr"), float):
        return None
    return rule["lr"]


_BY_STEP_KIND = {
    "seed": _seed,
    "backward": _backward,
    "reduce": _reduce,
    "accumulate": _accumulate,
    "zero_grad": _zero_grad,
    "update": _update,
}
