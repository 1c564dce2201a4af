"""The HTML player in real Chromium: stepping, keys, buttons, quiz, no requests, no injection."""

import pytest

import autoviz
from autoviz.tracing.explain import Question
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


def test_quiz_rejects_wrong_accepts_right_and_reveals(quiz_page):
    page = quiz_page
    page.keyboard.press("End")  # End does not skip a question: it stops in front of the first
    assert step(page) == 5
    assert page.locator(".av-prompt").text_content() == (
        "What gradient does AddBackward0 send to y? (upstream × local)"
    )
    page.keyboard.press("Escape")  # out of the answer box: the keys step again
    page.keyboard.press("Home")  # going back closes it; coming forward asks again
    assert step(page) == 0 and page.locator(".av-quiz").is_hidden()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert step(page) == 5
    page.keyboard.press("ArrowRight")  # step 6 reveals what AddBackward0 sends: asked first
    assert step(page) == 5 and page.locator(".av-quiz").is_visible()
    page.fill(".av-answer", "two")
    page.click("[data-action=check]")
    assert page.locator(".av-verdict").text_content() == (
        "'two' is not a number: type a value such as 2 or 0.5."
    )
    assert step(page) == 5  # not revealed: the learner may try again
    page.fill(".av-answer", "5")
    page.press(".av-answer", "Enter")
    assert page.locator(".av-verdict").text_content() == (
        "Not quite: the answer is 1.0. (0 of 1 right so far)"
    )
    assert page.locator(".av-verdict").get_attribute("class") == "av-verdict wrong"
    assert step(page) == 6  # revealed after the answer
    page.keyboard.press("ArrowRight")  # b.grad is accumulated next: asked
    page.fill(".av-answer", " 1.00001 ")
    page.press(".av-answer", "Enter")
    assert page.locator(".av-verdict").text_content() == (
        "Right: the answer is 1.0. (1 of 2 right so far)"
    )
    assert step(page) == 7 and nodes(page)["b"][2][-1] == "grad: 1.0"
    page.keyboard.press("ArrowRight")  # MulBackward0: shown without answering
    page.click("[data-action=reveal]")
    assert step(page) == 8
    assert page.locator(".av-verdict").text_content() == "The answer is 2.0. (1 of 3 right so far)"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")  # answered once: not asked again
    assert step(page) == 8 and page.locator(".av-quiz").is_hidden()
    page.fill(".av-slider", "11")  # the slider, too, stops in front of the next question
    assert step(page) == 8 and page.locator(".av-quiz").is_visible()  # w.grad is asked


def test_quiz_check_in_the_browser_agrees_with_question_check(quiz_page):
    guesses = ["2", " 2.0001 ", "2.01", "−2", "+2", "2e0", "1_9.99_9", ".5", "2.", "inf", "-inf"]
    guesses += ["nan", "NaN", "0x2", "", "  ", "2,0", "two", "it's", '"q"', "a\\b", "1e", "e5"]
    for answer in (2.0, float("nan"), float("inf")):  # a NaN gradient is answered with "nan"
        question = Question("?", answer)
        quiz = {
            "answer": repr(answer),
            "rel": question.rel_tol,
            "abs": question.abs_tol,
            "right": question.check(repr(answer))[1],
            "wrong": question.check("9")[1],
        }
        for guess in guesses:
            right, sentence = page_check(quiz_page, guess, quiz)
            expected_right, expected = question.check(guess)
            assert (bool(right), sentence) == (expected_right, expected), (answer, guess)
        assert question.check(repr(answer))[0]


def page_check(page, guess, quiz):
    return page.evaluate("([g, q]) => window.autoviz.check(g, q)", [guess, quiz])


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
        page.click("[data-action=reveal]") if page.locator(".av-quiz").is_visible() else None
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
