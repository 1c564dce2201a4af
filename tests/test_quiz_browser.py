"""The quiz in Chromium: the HTML page and the Jupyter widget (the same module, mounted as
anywidget mounts it) ask the same questions and say the same things to the same answers, a
hint after a first wrong try, then the answer; and each is what Question.check says."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_player_browser import form_questions
from test_quiz import broadcasting

import autoviz
from autoviz.export import frontend
from autoviz.tracing.quiz import questions

MOUNT = """
window.__mount = (values) => {
  const model = localModel(values);
  render({ model, el: document.getElementById("widget") });
  return true;
};
"""


def wrong_guess(quiz: dict):
    """A wrong answer of the question's form: its first known mistake where it has one."""
    if quiz["form"] == "choices":
        return [] if quiz["answer"] else quiz["options"][:1]
    if quiz["mistakes"]:
        return quiz["mistakes"][0][0]
    if quiz["form"] == "choice":
        return next(o for o in quiz["options"] if o != quiz["answer"])
    return {"number": "12345", "shape": "(99,)", "dims": "7", "text": "no"}[quiz["form"]]


def right_guess(quiz: dict):
    if quiz["form"] == "shape":
        return (
            "("
            + ", ".join(map(str, quiz["answer"]))
            + ("," if len(quiz["answer"]) == 1 else "")
            + ")"
        )
    if quiz["form"] == "dims":
        return ", ".join(map(str, quiz["answer"]))
    return quiz["answer"]


def give(root, quiz: dict, guess) -> None:
    """Answer as a learner does: type and press Enter, click a choice, or tick and Check."""
    if quiz["form"] == "choice":
        root.locator("button.av-option", has_text=guess).first.click()
    elif quiz["form"] == "choices":
        for box in root.locator(".av-options input[type=checkbox]").all():
            box.set_checked(box.get_attribute("value") in guess)
        root.locator("[data-action=check]").click()
    else:
        root.locator(".av-answer").fill(str(guess))
        root.locator(".av-answer").press("Enter")


def drive(root, steps: list) -> list:
    """Step to the end with ▶, answering each question wrong, then (after the hint) right;
    every sentence the quiz box says, in order, with the step it was said at."""
    said = []
    for _ in range(len(steps) + len([s for s in steps if s["quiz"]])):
        if root.locator("[data-action=next]").is_disabled():
            break
        root.locator("[data-action=next]").click()
        box = root.locator(".av-quiz")
        if box.is_visible() and root.locator(".av-quiz-row").is_visible():
            prompt = root.locator(".av-prompt").text_content()
            quiz = next(s["quiz"] for s in steps if s["quiz"] and s["quiz"]["prompt"] == prompt)
            give(root, quiz, wrong_guess(quiz))
            said.append(("hint", root.locator(".av-verdict").text_content()))
            give(root, quiz, right_guess(quiz))
            said.append(("right", root.locator(".av-verdict").text_content()))
    said.append(("score", root.locator(".av-score").text_content()))
    return said


@pytest.fixture
def broadcast_timeline():
    return broadcasting()


def test_the_page_and_the_widget_say_the_same_to_the_same_answers(
    page, tmp_path, pure_engine, broadcast_timeline
):
    tl = broadcast_timeline
    path = tl.save_html(tmp_path / "b.html", quiz=True)
    page.goto(path.as_uri())
    page.wait_for_selector(".av-player[data-ready]")
    data = json.loads(page.locator("#av-data").text_content())
    on_page = drive(page.locator("#av-root"), data["steps"])

    stepper = autoviz.Stepper(tl, quiz=True)
    widget = page.context.new_page()
    widget.set_content('<div id="widget" style="width: 1200px; height: 760px"></div>')
    widget.add_style_tag(content=stepper._css)
    widget.add_script_tag(content=stepper._esm + MOUNT, type="module")
    widget.wait_for_function("() => window.__mount !== undefined")
    values = {
        "_data": stepper._data,
        "_svgs": stepper._svgs,
        "step": 0,
        "quiz": stepper.quiz,
        "follow": True,
        "projector": False,
        "rankdir": None,
    }
    widget.evaluate("(v) => window.__mount(v)", values)
    widget.wait_for_selector("#widget[data-ready]")
    in_widget = drive(widget.locator("#widget"), stepper._data["steps"])

    assert in_widget == on_page
    asked = questions(tl)
    assert len([s for s in on_page if s[0] == "right"]) == len(asked) == 8
    for (kind, sentence), q in zip(on_page[0::2], asked.values(), strict=False):
        assert kind == "hint" and sentence == q.check(wrong_guess(q.data()), first_try=True)[1]
    assert on_page[-1] == ("score", "Score: 8 of 8 right (8 at the second try).")


GUESS_TEXT = st.text(
    alphabet=" \t\n,x×*()[]0123456789-+.eEnaifNI_dimsSzetorch'\"\\yYoOPpw", max_size=14
)


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(GUESS_TEXT, min_size=1, max_size=30))
def test_any_typed_text_is_read_alike_in_the_browser_and_in_python(page, guesses):
    """Random text, as a learner might type it, against a question of each form."""
    if page.url == "about:blank":
        page.set_content("<p></p>")
        page.add_script_tag(content=frontend.module() + "\nwindow.__check = check;", type="module")
        page.wait_for_function("() => window.__check !== undefined")
    for question in form_questions():
        for first in (True, False):
            said = page.evaluate(
                "([gs, q, first]) => gs.map((g) => window.__check(g, q, first))",
                [guesses, question.data(), first],
            )
            for guess, got in zip(guesses, said, strict=True):
                assert tuple(got) == question.check(guess, first_try=first), (guess, question)
