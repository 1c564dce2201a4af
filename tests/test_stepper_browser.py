"""The Stepper in a real JupyterLab 4 and Notebook 7: it renders, steps with buttons and keys in
the browser, and Python's `stepper.step` follows; step latency measured there."""

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

LESSON_CELL = """\
import autoviz
x = autoviz.tensor(2.0, requires_grad=True)
w = autoviz.tensor(3.0, requires_grad=True)
b = autoviz.tensor(1.0, requires_grad=True)
with autoviz.trace() as tl:
    y = w * x
    z = y + b
    z.backward()
stepper = autoviz.Stepper(tl)
stepper"""


def chain_cell(name: str, n_nodes: int) -> str:
    """A chain of tanh and * with a fresh leaf per product: about n_nodes nodes."""
    return f"""\
x = autoviz.tensor(0.5, requires_grad=True)
with autoviz.trace() as tl_{name}:
    y = x
    for i in range({n_nodes // 3}):
        w = autoviz.tensor(1.01, requires_grad=True)
        y = y * w if i % 2 else y.tanh()
    y.backward()
print(len(tl_{name}.nodes), "nodes")
{name} = autoviz.Stepper(tl_{name})
{name}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_notebook(path: Path, cells: list[str]) -> None:
    notebook = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "source": src, "outputs": []}
            | {"execution_count": None, "id": f"cell{i}"}
            for i, src in enumerate(cells)
        ],
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook), encoding="utf-8")


def ensure_kernelspec(env: dict) -> None:
    """Install the ipykernel kernelspec into the temporary data dir when none is found."""
    from jupyter_client.kernelspec import KernelSpecManager

    if "python3" not in KernelSpecManager().find_kernel_specs():
        subprocess.run(
            [sys.executable, "-m", "ipykernel", "install", "--user", "--name", "python3"],
            env=env,
            check=True,
            capture_output=True,
        )


APPS = {
    "lab": ("jupyterlab", "LabApp", "lab/tree"),
    "notebook": ("notebook", "JupyterNotebookApp", "notebooks"),
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab 4 server (see `jupyter_server`)."""
    yield from jupyter_server(tmp_path_factory, "lab")


@pytest.fixture(scope="module", params=sorted(APPS))
def jupyter(request, tmp_path_factory):
    """JupyterLab 4, then Notebook 7, each a server of its own."""
    yield from jupyter_server(tmp_path_factory, request.param)


def jupyter_server(tmp_path_factory, app: str):
    """A Jupyter server on 127.0.0.1 with a token, its config and data in a temp dir; yields
    its address, token, folder and the path of a notebook's page."""
    module, app_class, tree = APPS[app]
    pytest.importorskip(module, reason="pip install -e '.[test]'")
    root = tmp_path_factory.mktemp(app)
    env = dict(os.environ)
    for var, sub in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ):
        env[var] = str(root / sub)
    ensure_kernelspec(env)
    # No "get notified about Jupyter news?" toast over the widget in the screenshot.
    settings = root / "config" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    port, token = free_port(), secrets.token_hex(16)
    notebooks = root / "notebooks"
    notebooks.mkdir()
    command = [
        sys.executable,
        "-m",
        module,
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={notebooks}",
        f"--{app_class}.news_url=None",
        f"--{app_class}.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        f"--{app_class}.extension_manager=readonly",
        "--ServerApp.terminals_enabled=False",
        "--allow-root",  # CI containers run as root
    ]
    log = (root / "server.log").open("wb")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{base}/api/status?token={token}", server, root / "server.log")
        yield {"base": base, "token": token, "dir": notebooks, "tree": tree, "app": app}
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def _wait_for(url: str, server, log: Path, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"Jupyter exited:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"Jupyter did not answer within {limit} s:\n{log.read_text()}")


def run_all_cells(page, attempts: int = 10) -> None:
    """Run > Run All Cells, repeated until a cell has run: JupyterLab drops the request when it
    comes before the kernel's websocket is up, and no indicator tells that moment apart."""
    # Only the notebook on show: a tab JupyterLab restored holds the prompts of an earlier run.
    started = (
        "() => [...document.querySelectorAll("
        "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-InputPrompt')]"
        ".some(p => /\\[\\d+\\]/.test(p.textContent))"
    )
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    page.wait_for_timeout(1500)
    seen = []
    for _ in range(attempts):
        dialog = page.locator(".jp-Dialog")
        if dialog.count():  # "Select Kernel": asked when Run came before the session was ready
            seen.append(dialog.inner_text())
            dialog.locator("button.jp-mod-accept").click()
            try:
                dialog.wait_for(state="detached", timeout=20000)
            except PlaywrightTimeout:
                page.keyboard.press("Escape")  # closed the other way; Run is tried again
                continue
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            page.wait_for_function(started, timeout=20000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(
        f"no cell started running after {attempts} tries of Run All Cells (dialogs: {seen})"
    )


@pytest.fixture
def lab_page(page, tmp_path):
    """The page, with a screenshot of it saved when the test fails (printed path)."""
    yield page
    shot = tmp_path / "page.png"
    page.screenshot(path=str(shot), full_page=True)
    print(f"\npage screenshot: {shot}")


def open_notebook(page, server, name: str, cells: list[str]) -> None:
    write_notebook(server["dir"] / name, [*cells, ""])  # the empty last cell is typed into
    page.set_default_timeout(60000)
    # reset: JupyterLab would restore the earlier tests' notebooks as tabs beside this one.
    reset = "&reset" if server["app"] == "lab" else ""
    page.goto(f"{server['base']}/{server['tree']}/{name}?token={server['token']}{reset}")
    run_all_cells(page)


def run_typed(page, code: str) -> None:
    """Type `code` into the notebook's last (empty) cell and run it (Shift+Enter)."""
    cell = page.locator(".jp-Notebook .jp-Cell").last
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.type(code)
    page.keyboard.press("Shift+Enter")


def counter(widget) -> str:
    return widget.locator(".av-counter").text_content()


def node_class(widget, node_id: str) -> str:
    return widget.locator(f"svg.av-svg:visible g#{node_id}").get_attribute("class")


# Press a key in the widget `steps` times; each time wait for the counter to change
# (MutationObserver) and for two animation frames (the new picture painted); ms from the key.
STEP_LATENCY_JS = """
async ([root, steps, key]) => {
  const counter = root.querySelector('.av-counter');
  root.focus();
  const times = [];
  for (let i = 0; i < steps; i++) {
    const changed = new Promise(resolve => {
      const observer = new MutationObserver(() => {
        observer.disconnect();
        resolve(performance.now());
      });
      observer.observe(counter, {childList: true, characterData: true, subtree: true});
    });
    const start = performance.now();
    root.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
    const updated = await changed;
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    times.push([updated - start, performance.now() - start]);
  }
  return times;
}
"""


def median_times(times: list) -> tuple[float, float]:
    """Median key-to-update and key-to-paint times (ms)."""
    return tuple(sorted(t[i] for t in times)[len(times) // 2] for i in (0, 1))


def test_stepper_renders_steps_in_the_browser_and_python_follows(jupyter, lab_page, tmp_path):
    page = lab_page
    page.set_viewport_size({"width": 1366, "height": 768})
    open_notebook(page, jupyter, "x.ipynb", [LESSON_CELL])
    widget = page.locator(".av-player").first
    widget.locator("svg.av-svg:visible g#n1").wait_for()
    assert counter(widget) == "step 1 of 12"
    assert "hidden" in node_class(widget, "n2")  # step 0: only w is made; x appears next
    # The frame's stylesheet (scoped to the theme) really hides it on the page.
    hidden = widget.locator("svg.av-svg:visible g#n2")
    assert hidden.evaluate("el => getComputedStyle(el).visibility") == "hidden"

    widget.locator("button[data-action='next']").click()  # a button
    page.wait_for_function(
        "el => el.querySelector('.av-counter').textContent === 'step 2 of 12'",
        arg=widget.element_handle(),
    )
    assert "current" in node_class(widget, "n2")
    widget.locator(".av-stage").click()  # focus the widget: its keys, not the notebook's
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert counter(widget) == "step 4 of 12"
    widget.locator("button[data-action='backward']").click()
    widget.locator(".av-banner", has_text="Backward").wait_for()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    widget.locator(".av-explain", has_text="MulBackward0").wait_for()
    assert counter(widget) == "step 9 of 12"
    shot = tmp_path / f"stepper-{jupyter['app']}.png"
    widget.screenshot(path=str(shot))
    print(f"\nscreenshot: {shot}")

    run_typed(page, "print('python sees step', stepper.step)")  # Python follows the browser
    page.get_by_text("python sees step 8").wait_for()
    run_typed(page, "stepper.step = 2")  # and the browser follows Python
    page.wait_for_function(
        "el => el.querySelector('.av-counter').textContent === 'step 3 of 12'",
        arg=widget.element_handle(),
    )
    errors = page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.first.inner_text()


def test_step_latency_in_jupyterlab_for_500_and_2000_nodes(lab, lab_page):
    page = lab_page
    page.set_viewport_size({"width": 1366, "height": 768})
    cells = [LESSON_CELL, chain_cell("s500", 500), chain_cell("s2000", 2000)]
    open_notebook(page, lab, "big.ipynb", cells)
    widgets = page.locator(".av-player")
    widgets.nth(2).locator("svg.av-svg:visible g#n1").wait_for(timeout=240000)
    found = {}
    for i, name in ((0, "lesson"), (1, "500 nodes"), (2, "2,000 nodes")):
        widget = widgets.nth(i)
        widget.scroll_into_view_if_needed()
        times = page.evaluate(STEP_LATENCY_JS, [widget.element_handle(), 10, "ArrowRight"])
        found[name] = median_times(times)
        assert counter(widget).startswith("step 11 of ")
    print(
        "\nwidget step latency in JupyterLab, key to updated / to painted (medians of 10): "
        + "; ".join(f"{name} {a:.1f} / {b:.1f} ms" for name, (a, b) in found.items())
    )
