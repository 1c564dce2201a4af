"""Lesson 1 as a teacher runs it: opened in a real JupyterLab, run top to bottom, stepped."""

import shutil
from pathlib import Path

# The widget tests' JupyterLab server and helpers; importing a fixture makes it usable here.
from test_stepper_browser import lab, lab_page, node_class, run_all_cells  # noqa: F401

LESSON_ONE = Path(__file__).resolve().parent.parent / "notebooks" / "01_computation_graphs.ipynb"


def test_lesson_one_runs_in_jupyterlab_and_its_stepper_steps(lab, lab_page):  # noqa: F811
    page = lab_page
    shutil.copy(LESSON_ONE, lab["dir"] / LESSON_ONE.name)
    page.set_default_timeout(40000)
    page.goto(f"{lab['base']}/lab/tree/{LESSON_ONE.name}?token={lab['token']}")
    run_all_cells(page)
    stepper = page.locator(".av-player").first
    stepper.locator("svg.av-svg:visible g#n1").wait_for()
    assert stepper.locator(".av-counter").text_content() == "step 3 of 5"  # Stepper(tl, step=2)
    stepper.locator("button[data-action='first']").click()
    assert "hidden" in node_class(stepper, "n2")
    stepper.locator("button[data-action='next']").click()
    page.wait_for_function(
        "el => el.querySelector('.av-counter').textContent === 'step 2 of 5'",
        arg=stepper.element_handle(),
    )
    assert "current" in node_class(stepper, "n2")
    # Every cell ran: the exercise's checking cell printed its friendly verdict.
    page.get_by_text("'None' is not a number").wait_for()
    errors = page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.first.inner_text()
