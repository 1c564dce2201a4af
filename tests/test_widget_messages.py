"""autoviz.Stepper's messages (issue 26 item 9): every message of the player gets one reply,
and one the kernel cannot do gets an error saying what was wrong, which the widget shows."""

import json
import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import autoviz
from conftest import graphviz_pure_path
from programs import mlp_training

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**400), 10**400)
    | st.sampled_from([10**400, -1, 0, 1, 2, 99, 2**63])
    | st.floats()
    | st.text(max_size=5)
    | st.sampled_from(["n1", "n2", "n9", "nudge", "expand"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
MESSAGES = st.one_of(
    JSON_VALUES,
    st.fixed_dictionaries(
        {"kind": st.sampled_from(["nudge", "expand", "nudged", "", "other"])},
        optional={
            "id": JSON_VALUES,
            "graph": st.integers(-2, 12) | JSON_VALUES,
            "node": st.sampled_from(["n1", "n2", "n3", "n40", "x"]) | JSON_VALUES,
            "h": st.floats() | st.sampled_from([10**400, 1e-3, True]) | JSON_VALUES,
            "element": st.lists(st.integers(-2, 3), max_size=2) | JSON_VALUES,
            "iteration": st.integers(-3, 12) | JSON_VALUES,
        },
    ),
)


@pytest.fixture(scope="module")
def fitting_stepper():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AUTOVIZ_DOT", graphviz_pure_path())
        # the first three iterations and the last shown whole: the fourth and fifth are expanded
        yield autoviz.Stepper(mlp_training(6), full_iterations=3)


@settings(
    max_examples=int(os.environ.get("AUTOVIZ_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(message=MESSAGES)
@example({"kind": "nudge", "id": float("nan"), "graph": 0, "node": "n1", "h": 0.01})
@example({"kind": "nudge", "id": 10**400})
@example({"kind": "nudge", "id": 1, "graph": 10**400, "node": "n1", "h": 0.01})
@example({"kind": "nudge", "id": 1, "graph": 0, "node": "n1" * 200, "h": 0.01})
@example({"kind": "nudge", "id": 1, "graph": 0, "node": "n1", "h": 1e308, "element": [10**400]})
@example({"kind": "nudge", "id": 1, "graph": 0, "node": "n1", "h": float("-inf")})
@example({"kind": "expand", "iteration": 10**400})
@example({"kind": "expand", "iteration": float("inf")})
def test_every_widget_message_gets_one_reply_saying_what_was_wrong(fitting_stepper, message):
    stepper = fitting_stepper
    sent = []
    stepper.send = sent.append  # what the front-end would receive
    stepper._message(stepper, message, [])
    assert len(sent) == 1
    reply = sent[0]
    json.dumps(reply, allow_nan=False)  # it can be sent
    assert reply["kind"] in ("nudged", "expanded", "error")
    kind = message.get("kind") if isinstance(message, dict) else None
    assert reply["kind"] == {"nudge": "nudged", "expand": "expanded"}.get(kind, "error")
    assert ("error" in reply) != ("result" in reply or "step" in reply), reply
    if "error" in reply:
        assert isinstance(reply["error"], str) and 10 < len(reply["error"]) < 300


def test_the_issues_bad_messages_get_clear_errors(pure_engine):
    stepper = autoviz.Stepper(mlp_training(6), full_iterations=3)
    sent = []
    stepper.send = sent.append
    stepper._message(stepper, {"kind": "expand", "iteration": 99}, [])
    assert sent.pop() == {
        "kind": "expanded",
        "iteration": 99,
        "error": "no iteration 99: the run has 6 (0 to 5)",
    }
    nudge = {"kind": "nudge", "id": 7, "graph": 0, "node": "n1", "h": 10**400}
    stepper._message(stepper, nudge, [])
    assert sent.pop() == {
        "kind": "nudged",
        "id": 7,
        "error": "h must be a finite number a float holds, got an integer of 401 digits",
    }
    stepper._message(stepper, {"kind": "expand", "iteration": 4}, [])
    assert sent.pop() == {"kind": "expanded", "iteration": 4, "step": stepper.step}
    assert stepper.step == stepper.tl.iterations[4].steps[0]
    stepper._message(stepper, ["expand", 4], [])
    assert "cannot answer a message of a list" in sent.pop()["error"]


# -- in Chromium: the widget's front-end shows each error reply -----------------------------------

MOUNT = """traits => {
  const model = localModel(traits);
  const listeners = new Set();
  const on = model.on;
  const off = model.off;
  model.on = (event, fn) => (event === "msg:custom" ? listeners.add(fn) : on(event, fn));
  model.off = (event, fn) => (event === "msg:custom" ? listeners.delete(fn) : off(event, fn));
  window.__sent = [];
  model.send = (msg) => window.__sent.push(msg);
  window.__reply = (msg) => { for (const fn of [...listeners]) fn(msg, []); };
  render({ model, el: document.getElementById("root") });
}"""
TRAITS = ("_data", "_svgs", "step", "quiz", "follow", "projector", "rankdir")


def mount(page, tmp_path, stepper):
    """The widget's module rendered on a model that hands its messages to the test."""
    path = tmp_path / "widget.html"
    path.write_text(
        f"<!doctype html><meta charset='utf-8'><style>{stepper._css}</style>"
        "<div id='root' style='width: 1300px; height: 740px'></div>",
        encoding="utf-8",
    )
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(path.as_uri())
    page.add_script_tag(content=stepper._esm + f"\nwindow.__mount = {MOUNT};", type="module")
    page.wait_for_function("typeof window.__mount === 'function'")
    page.evaluate("traits => window.__mount(traits)", {k: getattr(stepper, k) for k in TRAITS})
    page.wait_for_selector("#root[data-ready]")


def answer(page, stepper, change=None) -> dict:
    """The kernel's reply to the widget's last message (changed first by `change`), delivered."""
    message = page.evaluate("window.__sent.pop()")
    if change:
        message.update(change)
    sent = []
    stepper.send = sent.append
    stepper._message(stepper, message, [])
    page.evaluate("msg => window.__reply(msg)", sent[0])
    return sent[0]


def test_the_widget_shows_the_kernels_error_replies(page, tmp_path, fitting_stepper):
    stepper = fitting_stepper
    mount(page, tmp_path, stepper)
    run = page.locator(".av-run")
    run.locator(".av-go").fill("5")
    run.locator("[data-go]").click()
    assert answer(page, stepper, {"iteration": 99})["error"]  # as a stale front-end would ask
    note = run.locator(".av-run-note")
    assert note.inner_text() == (
        "The kernel could not expand it: no iteration 99: the run has 6 (0 to 5)"
    )
    page.screenshot(path=str(tmp_path / "expand-error.png"))

    page.locator("svg.av-svg:visible g#n1").click()  # net.0.weight, at the first step
    page.locator(".av-card [data-nudge]").click()
    assert answer(page, stepper, {"h": 10**400})["kind"] == "nudged"
    assert (
        "h must be a finite number a float holds, got an integer of 401 digits"
        in page.locator(".av-nudge").inner_text()
    )
    page.locator(".av-nudge").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "nudge-error.png"))

    page.locator(".av-card [data-close]").click()  # the card sits over the explanation
    page.evaluate("window.__sent.push({kind: 'zoom'})")
    answer(page, stepper)
    assert page.locator("#root .av-explain").is_visible()
    assert page.locator("#root .av-explain").inner_text() == (
        "The kernel could not do what the widget asked: the widget cannot answer a message of "
        "kind 'zoom': it answers ['nudge', 'expand']"
    )
    page.screenshot(path=str(tmp_path / "refused.png"))
    print(f"\nscreenshots: {tmp_path}")
