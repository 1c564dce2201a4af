"""The HTML player in real Chromium: stepping, keys, buttons, quiz, no requests, no injection."""

import pytest

import autoviz
from autoviz.tracing.questions import Question
from conftest import lesson_timeline

HOSTILE = "</script><script>window.__pwned=1</script>\"'&<>\n😈"


@pytest.fixture
def lesson_page(page, tmp_path, pure_engine):
    path = lesson_timeline().save_html(tmp_path / "lesson.html")
    page.goto(path.as_uri())
    page.uri = path.as_uri()
    return page


@pytest.fixture
def quiz_page(page, tmp_path, pure_engine):
    page.goto(lesson_timeline().save_html(tmp_path / "quiz.html", quiz=True).as_uri())
    return page


def step(page) -> int:
    return int(page.evaluate("document.body.dataset.step"))


def nodes(page) -> dict:
    """Name (first label row) -> (visible, highlighted, label rows) in the picture on screen."""
    return page.evaluate(
        """() => {
        const out = {};
        const svg = [...document.querySelectorAll('svg.av-svg')]
            .find(s => s.style.display !== 'none');
        for (const g of svg.querySelectorAll('g.node[id^="n"]')) {
            const rows = Array.from(g.querySelectorAll('text'), (t) => t.textContent);
            const cls = g.getAttribute('class').split(' ');
            const shown = getComputedStyle(g).visibility === 'visible';
            out[rows[0]] = [shown && !cls.includes('hidden'), cls.includes('current'), rows];
        }
        return out;
    }"""
    )


def visible(page) -> set:
    return {name for name, (shown, _, _) in nodes(page).items() if shown}


def current(page) -> set:
    return {name for name, (_, now, _) in nodes(page).items() if now}


def test_pressing_right_steps_through_both_passes(lesson_page):
    page = lesson_page
    assert step(page) == 0
    assert visible(page) == {"w"} and current(page) == {"w"}
    assert page.locator(".av-banner").text_content() == "Forward — building the graph"
    seen = {}
    for k in range(1, 12):
        page.keyboard.press("ArrowRight")
        assert step(page) == k
        seen[k] = (visible(page), current(page))
    assert seen[2] == ({"w", "x", "*", "y"}, {"*", "y"})  # MulBackward0 and its output appear
    assert seen[4][0] == {"w", "x", "*", "y", "b", "+", "z"}
    assert seen[8][1] == {"*"}  # MulBackward0 runs in backward
    assert page.locator(".av-banner").text_content() == "Backward — flowing gradients"
    page.keyboard.press("ArrowRight")  # past the end: stays on the last step
    assert step(page) == 11
    rows = {name: info[2] for name, info in nodes(page).items()}
    assert rows["x"][-1] == "grad: 3.0"
    assert rows["w"][-1] == "grad: 2.0"
    assert rows["b"][-1] == "grad: 1.0"
    assert page.locator(".av-counter").text_content() == "step 12 of 12"


def test_backward_edges_show_the_chain_rule_and_the_panels_follow(lesson_page):
    page = lesson_page
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    flows = page.eval_on_selector_all(
        "svg.av-svg:visible g.edge.grad.current text.flow", "ts => ts.map(t => t.textContent)"
    )
    assert sorted(flows) == ["1.0 × 2.0 = 2.0", "1.0 × 3.0 = 3.0"]
    explain = page.locator(".av-explain div").all_text_contents()
    assert explain == [
        "MulBackward0: ∂y/∂w = x = 2.0; upstream 1.0 × 2.0 = 2.0 → w.grad",
        "MulBackward0: ∂y/∂x = w = 3.0; upstream 1.0 × 3.0 = 3.0 → x.grad",
    ]
    assert page.locator(".av-code li.current code").text_content().strip() == "z.backward()"
    page.keyboard.press("Home")
    assert page.locator(".av-code li.current code").text_content().strip() == "y = w * x"


def test_no_request_leaves_the_file(lesson_page):
    page = lesson_page
    page.keyboard.press("End")
    page.click("[data-action=projector]")
    assert page.requests == [page.uri]


def test_keyboard_home_end_left_right_and_space(lesson_page):
    page = lesson_page
    page.keyboard.press("End")
    assert step(page) == 11
    assert {"x", "w", "b"} <= visible(page)
    page.keyboard.press("ArrowLeft")
    assert step(page) == 10
    assert nodes(page)["x"][2][-1] == "grad: 3.0"  # accumulated at step 10 itself
    page.keyboard.press("ArrowLeft")
    assert nodes(page)["x"][2][-1] == "grad: None"  # stepping back undoes it
    page.keyboard.press("Home")
    assert step(page) == 0 and visible(page) == {"w"}
    page.select_option(".av-speed", "4")
    page.keyboard.press("Space")
    assert page.locator("[data-action=play]").text_content() == "⏸ Pause"
    page.wait_for_function("() => Number(document.body.dataset.step) >= 2")
    page.keyboard.press("Space")
    assert page.locator("[data-action=play]").text_content() == "▶ Play"
    paused = step(page)
    page.wait_for_timeout(700)  # longer than a 4× tick: nothing moves while paused
    assert step(page) == paused


def test_buttons_and_slider(lesson_page):
    page = lesson_page
    assert page.locator("[data-action=prev]").is_disabled()
    page.click("[data-action=next]")
    page.click("[data-action=next]")
    assert step(page) == 2
    page.click("[data-action=prev]")
    assert step(page) == 1
    page.click("[data-action=backward]")
    assert step(page) == 5  # the seed: backward starts at z
    assert current(page) == {"z"}
    page.click("[data-action=last]")
    assert step(page) == 11 and page.locator("[data-action=next]").is_disabled()
    page.click("[data-action=first]")
    assert step(page) == 0
    page.fill(".av-slider", "9")
    assert step(page) == 9 and nodes(page)["w"][2][-1] == "grad: 2.0"
    page.click("[data-action=play]")
    page.wait_for_function("() => document.body.dataset.step === '11'")
    play = "document.querySelector('[data-action=play]')"
    page.wait_for_function(f"() => {play}.textContent === '▶ Play'")


def test_projector_mode_enlarges_the_type(lesson_page):
    page = lesson_page
    size = "parseFloat(getComputedStyle(document.querySelector('.av-explain')).fontSize)"
    before = page.evaluate(size)
    page.keyboard.press("f")
    assert page.evaluate("document.documentElement.classList.contains('projector')")
    # 18 px at least, the panels' and the graph's (tests/test_camera_browser.py); every text
    # of the player in tests/test_screens_browser.py
    assert page.evaluate(size) >= max(18, 1.2 * before)
    page.click("[data-action=projector]")
    assert not page.evaluate("document.documentElement.classList.contains('projector')")


def test_quiz_hints_after_a_wrong_try_then_reveals_and_scores(quiz_page):
    page = quiz_page
    page.keyboard.press("End")  # End does not skip a question: it stops in front of the first
    assert step(page) == 4
    assert page.locator(".av-prompt").text_content() == (
        "Backward is about to run from z. Which of these tensors have a .grad (not None) once "
        "it is done?"
    )
    boxes = page.locator(".av-options input[type=checkbox]")
    assert page.locator(".av-options label").all_text_contents() == ["w", "x", "y", "b", "z"]
    for i in (0, 1, 2):  # w, x and y: y is not a leaf
        boxes.nth(i).check()
    page.click("[data-action=check]")
    verdict = page.locator(".av-verdict")
    assert verdict.get_attribute("class") == "av-verdict hint"
    assert verdict.text_content().startswith("Not quite. y is not a leaf: backward uses")
    assert verdict.text_content().endswith("Try again.")
    assert step(page) == 4  # a second try
    boxes.nth(2).uncheck()
    boxes.nth(3).check()
    page.click("[data-action=check]")
    assert verdict.text_content().startswith("Right: the answer is w, x, b. y, z stay None")
    assert verdict.text_content().endswith("(1 of 1 right so far)")
    assert step(page) == 5
    page.keyboard.press("Home")  # going back closes the box; coming forward asks again
    assert step(page) == 0 and page.locator(".av-quiz").is_hidden()
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    assert step(page) == 5  # step 6 reveals what AddBackward0 sends: asked first
    assert page.locator(".av-prompt").text_content() == (
        "What gradient does AddBackward0 send to y? (upstream × local)"
    )
    note = page.locator(".av-quiz-note").text_content()
    assert note == "A number; within 0.1% or ±0.0001 counts."
    page.fill(".av-answer", "two")
    page.click("[data-action=check]")
    assert verdict.text_content() == "'two' is not a number: type a value such as 2 or 0.5."
    page.fill(".av-answer", "5")
    page.press(".av-answer", "Enter")
    assert verdict.text_content() == (
        "Not quite. Multiply the upstream gradient by the local derivative: y gets upstream. "
        "Try again."
    )
    assert step(page) == 5  # not revealed: a second try
    page.fill(".av-answer", "7")
    page.press(".av-answer", "Enter")
    assert verdict.text_content() == "Not quite: the answer is 1.0. (1 of 2 right so far)"
    assert verdict.get_attribute("class") == "av-verdict wrong"
    assert step(page) == 6  # revealed after the second try
    page.keyboard.press("ArrowRight")  # b.grad is accumulated next: asked
    page.fill(".av-answer", " 1.00001 ")
    page.press(".av-answer", "Enter")
    assert verdict.text_content() == "Right: the answer is 1.0. (2 of 3 right so far)"
    assert step(page) == 7 and nodes(page)["b"][2][-1] == "grad: 1.0"
    page.keyboard.press("ArrowRight")  # MulBackward0: shown without answering
    page.click("[data-action=reveal]")
    assert step(page) == 8
    assert verdict.text_content() == "The answer is 2.0. (2 of 4 right so far)"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")  # answered once: not asked again
    assert step(page) == 8 and page.locator(".av-quiz").is_hidden()
    page.fill(".av-slider", "11")  # the slider, too, stops in front of the next question
    assert step(page) == 8 and page.locator(".av-quiz").is_visible()  # w.grad is asked
    page.fill(".av-answer", "2")
    page.press(".av-answer", "Enter")
    page.keyboard.press("ArrowRight")  # x.grad, right at the second try
    page.fill(".av-answer", "2")
    page.press(".av-answer", "Enter")
    page.fill(".av-answer", "3")
    page.press(".av-answer", "Enter")
    assert verdict.text_content() == "Right: the answer is 3.0. (4 of 6 right so far)"
    assert page.locator(".av-score").is_hidden()
    page.keyboard.press("End")  # the last step: the score
    assert step(page) == 11
    assert page.locator(".av-score").text_content() == (
        "Score: 4 of 6 right (2 at the second try, 1 shown)."
    )
    page.keyboard.press("End")  # already there: the score stays
    assert page.locator(".av-score").is_visible()


def test_quiz_check_in_the_browser_agrees_with_question_check(quiz_page):
    """Every form of question, its right answer, its known mistakes and bad input: the page
    says what Question.check says, at the first try and at the second."""
    guesses = ["2", " 2.0001 ", "2.01", "−2", "+2", "2e0", "1_9.99_9", ".5", "2.", "inf", "-inf"]
    guesses += ["nan", "NaN", "0x2", "", "  ", "2,0", "two", "it's", '"q"', "a\\b", "1e", "e5"]
    guesses += ["(8, 3)", "8,3", "8x3", "8 × 3", "[3, 8]", "torch.Size([8, 3])", "Size([8,3])"]
    guesses += ["(3,)", "3", "()", "(8, 3,)", "(8,, 3)", "8*3", "(-8, 3)", "dim 0", "dims 0, 1"]
    guesses += ["0", "-1", "-2", "[0]", "0 1", "1, 0", "positive", "Negative", "ZERO", "pos"]
    guesses += ["yes", "No", "None", "zeros", "unchanged", "w", "w, x", "x,w", "none", "w,,x"]
    guesses += ["b, y", "Paris", "  paris  ", "the  answer", "\tThe answer\n"]
    for question in form_questions():
        quiz = question.data()
        for first in (True, False):
            said = page_checks(quiz_page, guesses, quiz, first)
            for guess, (right, sentence) in zip(guesses, said, strict=True):
                expected = question.check(guess, first_try=first)
                assert (right, sentence) == expected, (question.prompt, guess, first)
        assert question.check(quiz["answer"])[0] if question.form == "number" else True


def form_questions() -> list:
    shape = Question("shape?", (8, 3), form="shape", mistakes=(((3, 8), "transposed-shape", "T."),))
    return [
        Question("?", 2.0, mistakes=((19.999, "local-without-upstream", "Local."),)),
        Question("?", float("nan")),
        Question("?", float("inf")),
        shape,
        Question("one?", (3,), form="shape"),
        Question("scalar?", (), form="shape", mistakes=(((3,), "forgot-broadcast-sum", "S."),)),
        Question(
            "dims?",
            (0,),
            form="dims",
            ndim=2,
            mistakes=(((1,), "wrong-broadcast-dim", "D"),),
        ),
        Question("dims?", (0, 1), form="dims", ndim=2),
        Question("sign?", "positive", form="choice", options=("positive", "negative", "zero")),
        Question(
            "zero?",
            "no",
            form="choice",
            options=("yes", "no"),
            mistakes=(("yes", "mask-blocks", "Not 0."),),
        ),
        Question("reset?", "None", form="choice", options=("None", "zeros", "unchanged")),
        Question(
            "which?",
            ("w", "x"),
            form="choices",
            options=("w", "x", "y", "b"),
            mistakes=(("y", "grad-on-non-leaf", "y is not a leaf."),),
        ),
        Question("none?", (), form="choices", options=("w", "W")),
        Question("city?", "Paris", form="text"),
    ]


def page_checks(page, guesses, quiz, first):
    return page.evaluate(
        "([gs, q, first]) => gs.map((g) => window.autoviz.check(g, q, first))",
        [guesses, quiz, first],
    )


def test_a_hostile_name_is_shown_as_text_and_runs_nothing(page, tmp_path, pure_engine):
    x = autoviz.tensor(2.0, requires_grad=True, name=HOSTILE)
    img = "<img src=x onerror='window.__pwned=2'>"
    with autoviz.trace() as tl:
        y = x * autoviz.tensor(3.0, requires_grad=True, name=img)
        y.backward()
    path = tl.save_html(tmp_path / "hostile.html", quiz=True)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    page.wait_for_selector(".av-player[data-ready]")
    for _ in range(len(tl)):
        page.keyboard.press("ArrowRight")
        reveal = page.locator("[data-action=reveal]")
        reveal.click() if reveal.is_visible() and reveal.is_enabled() else None
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.querySelectorAll('script').length") == 2  # data, player
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert errors == []
    text = page.locator("body").text_content()
    assert "</script><script>window.__pwned=1</script>" in text  # literal, in the picture
    assert img in text  # in the explanation panel
    assert [url for url in page.requests if not url.startswith("file:")] == []


def test_the_code_panel_keeps_the_current_line_in_view(page, tmp_path, pure_engine):
    """A program longer than its panel: the line of the step shown is scrolled into view."""
    import runpy

    lines = ["v0 = x * 1.0", *(f"v{i} = v{i - 1} * 1.01" for i in range(1, 40)), "v39.backward()"]
    script = tmp_path / "long.py"
    body = "".join(f"    {line}\n" for line in lines)
    script.write_text(
        "import autoviz\nx = autoviz.tensor(1.0, requires_grad=True)\n"
        f"with autoviz.trace() as tl:\n{body}",
        encoding="utf-8",
    )
    path = runpy.run_path(str(script))["tl"].save_html(tmp_path / "long.html")
    page.goto(path.as_uri())
    page.wait_for_selector(".av-player[data-ready]")
    for k in (60, 3, 45):
        page.evaluate(f"window.autoviz.goto({k})")
        shown = page.evaluate(
            """() => { const li = document.querySelector('.av-code li.current');
            const a = li.getBoundingClientRect();
            const b = li.closest('.av-panel').getBoundingClientRect();
            return [li.querySelector('code').textContent, a.top >= b.top && a.bottom <= b.bottom];
            }"""
        )
        assert shown[1], (k, shown)
