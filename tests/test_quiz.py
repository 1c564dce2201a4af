"""The quiz: each kind of question from the recorded step, its hints and known mistakes, how a
guess is read, the teacher's plan and own questions."""

import itertools
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import autoviz
from autoviz.tracing.mistakes import MISTAKES
from autoviz.tracing.questions import Question, read_shape
from autoviz.tracing.quiz import KINDS, QuizPlan, parse_plan, plan_of, questions
from conftest import lesson_timeline
from programs import mlp_training


def broadcasting():
    """relu(x * w + b) with a bias broadcast over the rows, summed: masks and a broadcast sum."""
    x = autoviz.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = autoviz.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], requires_grad=True)
    b = autoviz.tensor([0.1, 0.2, -0.3], requires_grad=True)
    with autoviz.trace() as tl:
        h = autoviz.relu(x * w + b)
        out = h.sum()
        out.backward()
    return tl


def accumulating():
    """Two backwards without zero_grad, retain_grad and detach, a manual update, grad.zero_()."""
    w = autoviz.tensor([1.0, -2.0, 3.0], requires_grad=True)
    x = autoviz.tensor([0.5, 1.0, 2.0])
    with autoviz.trace() as tl:
        for _ in range(2):
            h = w * x
            h.retain_grad()
            d = h.detach()
            loss = (h * h).sum() + d.sum()
            loss.backward()
        with autoviz.no_grad():
            w -= 0.1 * w.grad
        w.grad.zero_()
    return tl


def by_kind(asked: dict) -> dict:
    found = {}
    for q in asked.values():
        found.setdefault(q.kind, []).append(q)
    return found


# --- the scalar lesson keeps its questions ---------------------------------------------------


def test_the_scalar_lesson_asks_upstream_times_local_and_each_grad():
    asked = questions(lesson_timeline())
    scalar = {q.prompt: q.answer for q in asked.values() if q.kind == "scalar"}
    assert scalar == {
        "What gradient does AddBackward0 send to y? (upstream × local)": 1.0,
        "What is b.grad after this step?": 1.0,
        "What gradient does MulBackward0 send to w? (upstream × local)": 2.0,
        "What is w.grad after this step?": 2.0,
        "What is x.grad after this step?": 3.0,
    }
    (which,) = by_kind(asked)["which-grad"]
    assert which.step == 5 and which.answer == ("w", "x", "b")  # before backward starts
    assert 0 not in asked  # the first forward step reveals nothing


def test_question_check_tolerates_rounding_and_explains_bad_input():
    q = Question("What is w.grad?", 2.0)
    assert q.check(" 2.0001") == (True, "Right: the answer is 2.0.")
    assert q.check("3") == (False, "Not quite: the answer is 2.0.")
    again = "Not quite. Look at the picture again. Try again."
    assert q.check("3", first_try=True) == (False, again)
    right, message = q.check("two")
    assert right is None and "'two' is not a number" in message


def test_a_nan_gradient_is_answered_with_nan():
    """sqrt(-1)'s gradient is NaN, which math.isclose finds close to nothing, itself included."""
    x = autoviz.tensor(-1.0, requires_grad=True)
    with autoviz.trace() as tl:
        y = x.sqrt()
        y.backward()
    nan = [q for q in questions(tl).values() if q.form == "number" and math.isnan(q.answer)]
    assert nan
    for q in nan:
        assert q.check("nan") == (True, "Right: the answer is nan.")
        assert q.check(" NaN ")[0] and q.check("-nan")[0]
        assert q.check("0") == (False, "Not quite: the answer is nan.")
        assert not q.check("inf")[0]
    assert Question("?", float("inf")).check("inf")[0]
    assert not Question("?", float("inf")).check("nan")[0]


# --- tensor programs ------------------------------------------------------------------------------


def test_the_mlp_asks_many_kinds_of_question(pure_engine):
    """The issue's 3-iteration MLP: more than 6 distinct questions, of most kinds."""
    asked = questions(mlp_training(3))
    assert len({q.prompt for q in asked.values()}) >= 6
    kinds = by_kind(asked)
    assert {"shape", "element", "sign", "broadcast", "which-grad", "update", "accumulation"} <= set(
        kinds
    )
    shapes = {q.prompt: q.answer for q in kinds["shape"]}
    assert shapes["What shape is net.0.weight.grad after backward?"] == (8, 3)
    assert shapes["What shape is net.0.bias.grad after backward?"] == (8,)
    (reset, *_) = [q for q in kinds["accumulation"] if q.form == "choice"]
    assert reset.answer == "None"  # zero_grad() sets to None
    assert reset.check("zeros")[1].startswith("Not quite: the answer is None. Since PyTorch 2.0")


def test_a_broadcast_asks_the_summed_dimension_and_the_masked_zero():
    tl = broadcasting()
    kinds = by_kind(questions(tl))
    (dims,) = [q for q in kinds["broadcast"] if q.form == "dims"]
    assert dims.answer == (0,) and dims.check("0")[0] and dims.check("-2")[0]
    assert dims.check("dim 0")[0] and dims.check("[0]")[0]
    assert "Summing over dim 1 would give shape (2,)" in dims.check("1", first_try=True)[1]
    (zero,) = kinds["zero"]
    assert zero.prompt == "Is element [0, 1] of the gradient ReluBackward0 sends to t2 zero?"
    assert zero.answer == "yes"  # t2[0, 1] = -1.8: relu blocks it
    assert "ReluBackward0 blocks the gradient where" in zero.check("no", first_try=True)[1]
    shapes = {q.prompt: q for q in kinds["shape"]}
    b_grad = shapes["What shape is b.grad after backward?"]
    assert b_grad.answer == (3,)
    said = b_grad.check("(2, 3)", first_try=True)[1]
    assert said.startswith("Not quite. b was broadcast from (3,) to (2, 3) going forward")


def test_every_kind_of_step_gets_its_question_with_known_mistakes():
    asked = questions(accumulating())
    kinds = by_kind(asked)
    (acc,) = [q for q in kinds["accumulation"] if q.form == "number"]
    assert acc.answer == 48.0  # 24 held + 24 brought
    assert acc.check("24", first_try=True)[1].startswith("Not quite. That is only what this")
    assert acc.check("24")[1].startswith("Not quite: the answer is 48.0. That is only what")
    (reset,) = [q for q in kinds["accumulation"] if q.form == "choice"]
    assert reset.answer == "zeros"  # grad.zero_() keeps the tensor
    (update,) = kinds["update"]
    assert update.answer == pytest.approx(3.0 - 0.1 * 48.0)
    assert "steps against the gradient" in update.check("7.8", first_try=True)[1]
    (which, *_) = kinds["which-grad"]
    assert which.answer == ("w", "h")  # the leaf, and h which called retain_grad()
    assert "d was made with detach()" in which.check(["w", "h", "d"], first_try=True)[1]
    assert "x does not require grad" in which.check("w, h, x", first_try=True)[1]
    assert "t1 is not a leaf" in which.check(["w", "h", "t1"], first_try=True)[1]
    assert "h.retain_grad() was called" in which.check(["w"], first_try=True)[1]
    element = next(q for q in kinds["element"] if q.about[0] == "sent" and q.about[2] == (2,))
    assert element.answer == 24.0  # upstream 12 × x[2] = 2
    assert "the local derivative alone" in element.check("2", first_try=True)[1]


def test_every_question_names_a_known_mistake_and_every_mistake_is_in_the_table():
    for tl in (lesson_timeline(), broadcasting(), accumulating(), mlp_training(2)):
        for q in questions(tl).values():
            assert q.kind in KINDS and q.hint and "?" in q.prompt
            for answer, name, hint in q.mistakes:
                assert name in MISTAKES and hint
                if q.form != "choices":
                    assert not q.same(q.read(answer) if q.form != "number" else answer, q.answer)


def test_big_tensors_are_asked_about_at_any_size():
    """A layer over the preview limit: its shapes, which tensors get a .grad, and elements among
    the first ones its Summary keeps exactly, each the real tensor's."""
    autoviz.manual_seed(0)
    layer = autoviz.nn.Linear(20, 30)
    x = autoviz.randn(16, 20)
    with autoviz.trace() as tl:
        layer(x).tanh().sum().backward()
    asked = questions(tl)
    kinds = by_kind(asked)
    assert (30, 20) in {q.answer for q in kinds["shape"]} and "which-grad" in kinds
    weight = tl.nodes[0]
    signs = [q for q in kinds["sign"] if q.about[1] == weight.id]
    assert signs, [q.prompt for q in asked.values()]
    for q in signs:
        real = float(layer.weight.grad[q.about[2]])
        assert q.answer == ("positive" if real > 0 else "negative")
    (which,) = kinds["which-grad"]
    assert "layer.weight" in which.answer  # a 600-element grad is a grad


# --- how guesses are read -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, shape",
    [
        ("(8, 3)", (8, 3)),
        ("8,3", (8, 3)),
        ("8x3", (8, 3)),
        ("8 × 3", (8, 3)),
        ("[8, 3]", (8, 3)),
        ("torch.Size([8, 3])", (8, 3)),
        ("(3,)", (3,)),
        ("3", (3,)),
        ("()", ()),
        ("torch.Size([])", ()),
    ],
)
def test_shapes_are_read_as_python_and_torch_print_them(text, shape):
    assert read_shape(text) == shape
    assert Question("?", shape, form="shape").check(text)[0]


def test_a_shape_can_be_answered_with_a_tuple_or_torch_size():
    q = Question("?", (8, 3), form="shape")
    assert q.check((8, 3))[0] and q.check([8, 3])[0] and not q.check((3, 8))[0]
    assert q.check("(8, three)") == (
        None,
        "'(8, three)' is not a shape: type one such as (4, 3), or () for a single number.",
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 999), max_size=4), st.sampled_from(["({})", "[{}]", "{}"]))
def test_any_shape_written_any_way_is_read_back(dims, wrap):
    assume(dims or wrap != "{}")  # nothing typed is not an answer: () is
    for sep in (", ", ",", " x ", "×"):
        body = sep.join(map(str, dims)) + ("," if len(dims) == 1 and wrap == "({})" else "")
        text = wrap.format(body)
        assert read_shape(text) == tuple(dims), text


def test_choices_read_names_exactly_and_words_in_any_case():
    sign = Question("?", "negative", form="choice", options=("positive", "negative", "zero"))
    assert sign.check("Negative")[0] and sign.check(" NEGATIVE ")[0]
    assert sign.check("neg") == (None, "'neg' is not one of the choices: positive, negative, zero.")
    names = Question("?", ("w",), form="choices", options=("w", "W", "x"))
    assert names.check(["w"])[0] and not names.check(["W"])[0] and names.check("w")[0]
    assert Question("?", (), form="choices", options=("a", "b")).check("none")[0]


# --- the plan ------------------------------------------------------------------------------------


def test_a_plan_limits_kinds_count_and_spacing():
    tl = mlp_training(3)
    every = questions(tl)
    shapes = questions(tl, {"kinds": ["shape"]})
    assert shapes and all(q.kind == "shape" for q in shapes.values())
    six = questions(tl, QuizPlan(count=6))
    assert len(six) == 6 and len({q.kind for q in six.values()}) == 6  # a kind each
    assert set(six) <= set(every)
    spaced = sorted(questions(tl, {"every": 5}))
    assert all(b - a >= 5 for a, b in itertools.pairwise(spaced))
    assert questions(tl, {"count": 0}) == {} and questions(tl, False) == {}


def test_the_cli_plan_text_is_read_with_clear_errors():
    assert parse_plan("") == QuizPlan()
    assert parse_plan("6") == QuizPlan(count=6)
    assert parse_plan("all") == QuizPlan()
    assert parse_plan("kinds=shape,element,which-grad") == QuizPlan(
        kinds=("shape", "element", "which-grad")
    )
    assert parse_plan("8,kinds=shape,sign,every=3") == QuizPlan(8, ("shape", "sign"), 3)
    assert parse_plan("kinds=shape", every=4) == QuizPlan(kinds=("shape",), every=4)
    with pytest.raises(ValueError, match=r"unknown quiz kind 'shapes' \(must be one of \["):
        parse_plan("kinds=shapes")
    with pytest.raises(ValueError, match=r"--quiz: unknown option 'kind' \(must be one of"):
        parse_plan("kind=shape")
    with pytest.raises(ValueError, match="--quiz: count takes one number or all, got 'six'"):
        parse_plan("six")
    with pytest.raises(ValueError, match="quiz every must be a number of steps >= 1, got 0"):
        plan_of({"every": 0})
    with pytest.raises(ValueError, match=r"unknown quiz option 'n' \(must be one of"):
        plan_of({"n": 3})
    with pytest.raises(TypeError, match="quiz must be True or False, or a dict"):
        plan_of("yes")


# --- a teacher's own questions -------------------------------------------------------------------


def test_a_teacher_adds_questions_that_are_asked_whatever_the_plan(tmp_path, pure_engine):
    tl = broadcasting()
    seed = next(k for k, s in enumerate(tl.steps) if s.kind == "seed")
    own = tl.add_question(seed, "How many elements does h have?", 6, hint="Count them.")
    assert own.kind == "teacher" and own.check("6")[0]
    assert own.check("5", first_try=True) == (False, "Not quite. Count them. Try again.")
    tl.add_question(2, "Which is broadcast?", "b", choices=["w", "b", "x"])
    tl.add_question(3, "What shape is x * w?", (2, 3))
    tl.add_question(4, "Which require grad?", ["w", "b"], choices=["w", "b", "x"])
    tl.add_question(1, "Name the op that adds.", "AddBackward0")
    asked = questions(tl, {"kinds": ["shape"], "count": 1})
    teacher = {k: q for k, q in asked.items() if q.kind == "teacher"}
    assert sorted(teacher) == [1, 2, 3, 4, seed]
    assert [teacher[k].form for k in (1, 2, 3, 4)] == ["text", "choice", "shape", "choices"]
    assert teacher[1].check(" addbackward0 ")[0]
    loaded = autoviz.Timeline.from_json(tl.to_json())  # saved with the timeline
    assert questions(loaded, {"count": 0})[seed].prompt == "How many elements does h have?"
    with pytest.raises(ValueError, match=r"answer 'y' is not one of the choices \['w', 'b'\]"):
        tl.add_question(2, "?", "y", choices=["w", "b"])
    with pytest.raises(TypeError, match="for yes or no: choices=\\['yes', 'no'\\]"):
        tl.add_question(2, "?", True)
    with pytest.raises(IndexError, match="step 99 out of range"):
        tl.add_question(99, "?", 1)
    with pytest.raises(ValueError, match="a question needs a prompt"):
        tl.add_question(2, " ", 1)
