"""The hosts teachers use besides JupyterLab, in Chromium: a lesson converted to a marimo
notebook runs in a real marimo server and its Stepper steps there; a notebook exported with
`jupyter nbconvert --to html` shows each stepper's still picture, offline."""

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from test_notebooks import KERNEL, NOTEBOOKS
from test_notebooks import kernel_specs as kernel_specs  # a fixture
from test_stepper_browser import _wait_for, free_port

LESSON = NOTEBOOKS / "03_forward_and_backward.ipynb"  # two steppers: backward, then a quiz
COUNTER = re.compile(r"step (\d+) of (\d+)")


def stepper_cells(nb) -> list[int]:
    """Indices of the code cells whose last line makes a Stepper (what the cell shows)."""
    found = []
    for i, cell in enumerate(nb.cells):
        lines = [line for line in cell.source.splitlines() if line.strip()]
        if cell.cell_type == "code" and lines and lines[-1].startswith("autoviz.Stepper("):
            found.append(i)
    return found


@pytest.fixture
def marimo_lesson(tmp_path):
    """Lesson 3 converted with `marimo convert` and served by `marimo run` on 127.0.0.1."""
    pytest.importorskip("marimo", reason='pip install -e ".[marimo]"')
    lesson = tmp_path / "lesson.py"
    subprocess.run(
        [sys.executable, "-m", "marimo", "convert", str(LESSON), "-o", str(lesson)],
        check=True,
        capture_output=True,
    )
    env = dict(os.environ)
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        env[var] = str(tmp_path / var.lower())  # marimo's settings and caches stay in tmp
    port = free_port()
    command = [sys.executable, "-m", "marimo", "run", str(lesson), "--headless", "--no-token"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--no-sandbox"]
    log_path = tmp_path / "marimo.log"
    log = log_path.open("wb")
    server = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    try:
        _wait_for(f"http://127.0.0.1:{port}/health", server, log_path, limit=120)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


@pytest.fixture
def nbconvert():
    """`jupyter nbconvert`, which JupyterLab brings (the test extra)."""
    pytest.importorskip("nbconvert", reason='pip install -e ".[test]"')


def count(widget) -> tuple[int, int]:
    k, n = COUNTER.search(widget.locator(".av-counter").text_content()).groups()
    return int(k), int(n)


def test_a_lesson_runs_as_a_marimo_notebook_and_its_stepper_steps(marimo_lesson, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto(marimo_lesson)
        players = page.locator(".av-player")
        lesson = nbformat.read(LESSON, as_version=4)
        cells = [lesson.cells[i].source for i in stepper_cells(lesson)]
        steppers, asks = len(cells), next(i for i, c in enumerate(cells) if "quiz=True" in c)
        players.nth(steppers - 1).wait_for(timeout=120_000)  # marimo ran every cell
        assert players.count() == steppers  # (the widgets sit in shadow roots: locators see them)
        widget = players.first
        widget.scroll_into_view_if_needed()
        assert count(widget) == (9, 12)  # Stepper(tl, step=8): MulBackward0 at work
        assert widget.locator(".av-banner").text_content() == "Backward — flowing gradients"
        widget.locator("[data-action=next]").click()
        page.wait_for_function(
            "el => /step 10 of 12/.test(el.textContent)",
            arg=widget.locator(".av-counter").element_handle(),
        )
        page.keyboard.press("ArrowLeft")  # the widget has the focus: its keys are its own
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(
            "el => /step 8 of 12/.test(el.textContent)",
            arg=widget.locator(".av-counter").element_handle(),
        )
        shown = widget.locator("svg.av-svg:visible g.node").count()
        assert shown >= 7  # the lesson's graph is drawn in the cell's output
        quiz = players.nth(asks)  # Stepper(tl, quiz=True, ...): forward done, nothing revealed
        quiz.scroll_into_view_if_needed()
        for _ in range(6):  # step on until a step would reveal what it asks about
            if quiz.locator(".av-quiz").is_visible():
                break
            quiz.locator("[data-action=next]").click()
        assert quiz.locator(".av-prompt").text_content().strip().endswith("?")
        asked_at = count(quiz)
        quiz.locator("[data-action=next]").click()  # not past an unanswered question
        assert count(quiz) == asked_at
    finally:
        page.close()
    outside = [url for url in asked if not url.startswith(marimo_lesson) and "data:" not in url]
    assert outside == [], "the lesson asked the network for something"


def run_as_jupyterlab_saves_it(tmp_path, kernel_specs) -> Path:
    """Lesson 3 run in a kernel and saved as JupyterLab saves a notebook by default: with its
    outputs (a stepper's holds the widget and its still picture) and no widget state."""
    nb = nbformat.read(LESSON, as_version=4)
    km = KernelManager(kernel_name=KERNEL, kernel_spec_manager=kernel_specs)
    resources = {"metadata": {"path": str(tmp_path)}}
    NotebookClient(nb, km=km, timeout=120, store_widget_state=False, resources=resources).execute()
    path = tmp_path / "lesson.ipynb"
    nbformat.write(nb, path)
    return path


def still_pictures(nb) -> list[str]:
    """The still picture each stepper cell of an executed notebook holds, in order."""
    pictures = []
    for i in stepper_cells(nb):
        (shown,) = [o for o in nb.cells[i].outputs if o.output_type == "execute_result"]
        assert "application/vnd.jupyter.widget-view+json" in shown.data  # the live widget
        pictures.append(shown.data["image/svg+xml"])
    return pictures


def html_export(notebook: Path, *options: str) -> Path:
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", *options, str(notebook)],
        check=True,
        capture_output=True,
        env={**os.environ, "JUPYTER_PATH": str(notebook.parent / "jupyter")},
    )
    return notebook.with_suffix(".html")


def shown_pictures(browser, page_path: Path) -> list[str]:
    """The SVG pictures the exported page shows in its code cells' outputs, as the browser
    decoded them, offline (every request outside the file is refused)."""
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.route(re.compile(r"^(?!file:|data:)"), lambda route: route.abort())
    try:
        page.goto(page_path.as_uri())
        images = page.locator(".jp-OutputArea-output img[src^='data:image/svg+xml']")
        found = []
        for i in range(images.count()):
            image = images.nth(i)
            image.scroll_into_view_if_needed()
            size = image.evaluate("img => [img.complete, img.naturalWidth, img.width]")
            assert size[0] and size[1] > 0 and size[2] > 100, size  # decoded and on screen
            source = image.get_attribute("src").split(",", 1)[1]
            found.append(base64.b64decode(source).decode("utf-8"))
        return found
    finally:
        page.close()


def test_an_html_export_shows_each_steppers_still_picture(
    tmp_path, kernel_specs, browser, nbconvert
):
    notebook = run_as_jupyterlab_saves_it(tmp_path, kernel_specs)
    stills = still_pictures(nbformat.read(notebook, as_version=4))
    expected = len(stepper_cells(nbformat.read(LESSON, as_version=4)))
    assert len(stills) == expected >= 2 and all('class="node' in svg for svg in stills)
    shown = shown_pictures(browser, html_export(notebook))
    for still in stills:  # each stepper's picture is among what the page shows
        assert still.strip() in [svg.strip() for svg in shown]


def test_an_executed_html_export_shows_them_too(tmp_path, kernel_specs, browser, nbconvert):
    """`jupyter nbconvert --to html --execute` saves the widgets' state, which would make the
    page load a widget manager from the network; without it the stills show offline."""
    kernels = tmp_path / "jupyter" / "kernels"
    kernels.mkdir(parents=True)
    spec = Path(kernel_specs.find_kernel_specs()[KERNEL])
    (kernels / KERNEL).mkdir()
    (kernels / KERNEL / "kernel.json").write_text((spec / "kernel.json").read_text())
    notebook = tmp_path / "lesson.ipynb"
    nb = json.loads(LESSON.read_text(encoding="utf-8"))
    nb["metadata"]["kernelspec"]["name"] = KERNEL
    notebook.write_text(json.dumps(nb), encoding="utf-8")
    page = html_export(notebook, "--execute", "--ExecutePreprocessor.store_widget_state=False")
    shown = shown_pictures(browser, page)
    assert sum('class="node' in svg for svg in shown) >= 2
