"""The Stepper inside a real JupyterLab: run a notebook, click next, see the picture change."""

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
stepper.speed.value = 200
stepper"""

# 499 nodes: a chain of tanh and * with a fresh leaf per product.
BIG_CELL = """\
import time
x = autoviz.tensor(0.5, requires_grad=True)
with autoviz.trace() as big:
    y = x
    for i in range(166):
        w = autoviz.tensor(1.01, requires_grad=True)
        y = y * w if i % 2 else y.tanh()
    y.backward()
print(len(big.nodes), "nodes")
big_stepper = autoviz.Stepper(big)
big_stepper"""


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


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 with a token, its config and data in a temp dir."""
    pytest.importorskip("jupyterlab", reason="pip install -e '.[test]'")
    root = tmp_path_factory.mktemp("lab")
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
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={notebooks}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
        "--ServerApp.terminals_enabled=False",
        "--allow-root",  # CI containers run as root
    ]
    log = (root / "server.log").open("wb")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{base}/api/status?token={token}", server, root / "server.log")
        yield {"base": base, "token": token, "dir": notebooks}
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
            raise RuntimeError(f"JupyterLab exited:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"JupyterLab did not answer within {limit} s:\n{log.read_text()}")


def run_all_cells(page, attempts: int = 10) -> None:
    """Run > Run All Cells, repeated until a cell has run: JupyterLab drops the request when it
    comes before the kernel's websocket is up, and no indicator tells that moment apart."""
    started = (
        "() => [...document.querySelectorAll('.jp-InputPrompt')]"
        ".some(p => /\\[\\d+\\]/.test(p.textContent))"
    )
    page.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for()
    page.wait_for_timeout(500)
    for _ in range(attempts):
        dialog = page.locator(".jp-Dialog")
        if dialog.count():  # "Select Kernel": asked when Run came before the session was ready
            dialog.locator("button.jp-mod-accept").click()
            dialog.wait_for(state="detached")
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            page.wait_for_function(started, timeout=20000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"no cell started running after {attempts} tries of Run All Cells")


def node_class(stepper, node_id: str) -> str:
    return stepper.locator(f"svg g#{node_id}").get_attribute("class")


# Click the button titled `title`, then wait for a layer of the frame to be replaced
# (MutationObserver) and for two animation frames (the new picture painted); ms from the click.
STEP_LATENCY_JS = """
async ([root, steps, title]) => {
  const frame = root.querySelector('.av-frame');
  const button = [...root.querySelectorAll('button')].find(b => b.title === title);
  const times = [];
  for (let i = 0; i < steps; i++) {
    const changed = new Promise(resolve => {
      const observer = new MutationObserver(() => {
        observer.disconnect();
        resolve(performance.now());
      });
      observer.observe(frame, {childList: true, subtree: true});
    });
    const start = performance.now();
    button.click();
    const updated = await changed;
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    times.push([updated - start, performance.now() - start]);
  }
  return times;
}
"""


@pytest.fixture
def lab_page(page, tmp_path):
    """The page, with a screenshot of it saved when the test fails (printed path)."""
    yield page
    shot = tmp_path / "page.png"
    page.screenshot(path=str(shot), full_page=True)
    print(f"\npage screenshot: {shot}")


def test_stepper_in_jupyterlab_steps_and_reports_latency(lab, lab_page, tmp_path):
    page = lab_page
    write_notebook(lab["dir"] / "x.ipynb", [LESSON_CELL, BIG_CELL])
    page.set_default_timeout(40000)
    page.goto(f"{lab['base']}/lab/tree/x.ipynb?token={lab['token']}")
    run_all_cells(page)
    lesson = page.locator(".autoviz-stepper").nth(0)
    lesson.locator(".av-frame svg g#n1").wait_for()
    assert "hidden" in node_class(lesson, "n2")  # step 0: only w is made; x appears next
    # The frame's stylesheet (scoped to this stepper) really hides it on the page.
    assert lesson.locator("svg g#n2").evaluate("el => getComputedStyle(el).visibility") == "hidden"
    assert lesson.locator("svg g#n1").evaluate("el => getComputedStyle(el).visibility") == "visible"
    lesson.locator(".av-banner", has_text="Forward").wait_for()  # may show after the picture

    lesson.locator("button[title='next step']").click()
    page.wait_for_function(
        "el => !el.querySelector('svg g#n2').classList.contains('hidden')",
        arg=lesson.element_handle(),
    )
    assert "current" in node_class(lesson, "n2")
    lesson.locator(".av-banner", has_text="step 1 of 11").wait_for()
    lesson.locator("button", has_text="start of backward").click()
    page.wait_for_function(
        "el => el.querySelector('.av-banner').textContent.includes('Backward')",
        arg=lesson.element_handle(),
    )
    lesson.locator("button[title='next step']").click()
    lesson.locator(".av-explain", has_text="AddBackward0").wait_for()
    shot = tmp_path / "stepper.png"
    lesson.screenshot(path=str(shot))
    print(f"\nscreenshot: {shot}")

    # Play runs in the browser (jslinked to the slider, speed to its interval) to the end.
    lesson.locator(".widget-play button").first.click()
    lesson.locator(".av-count", has_text="step 11 of 11").wait_for(timeout=20000)
    # The count follows the slider in the browser; the banner is drawn by the kernel, so once
    # it reads the last step the kernel has handled every value Play sent (on a loaded
    # machine a late one would otherwise undo the clicks below).
    lesson.locator(".av-banner", has_text="step 11 of 11").wait_for(timeout=20000)
    # Play stops one tick after the last step (its icon turns back to ▶); a click before
    # then would be undone by that tick.
    lesson.locator(".widget-play button i.fa-play").first.wait_for(timeout=20000)
    assert "Backward is done" in lesson.locator(".av-explain").inner_text()

    # Step latency: the 500-node timeline beside the 12-step lesson (stepped back from its
    # end), in the same page and kernel, so the ratio shows what the frame's size costs.
    big = page.locator(".autoviz-stepper").nth(1)
    big.locator(".av-frame svg g#n1").wait_for(timeout=60000)
    back, forward = "previous step (back)", "next step"
    small = median_times(page.evaluate(STEP_LATENCY_JS, [lesson.element_handle(), 10, back]))
    large = median_times(page.evaluate(STEP_LATENCY_JS, [big.element_handle(), 10, forward]))
    print(
        f"\nstep latency, click to updated SVG / to painted (medians of 10): "
        f"500-node timeline {large[0]:.0f} / {large[1]:.0f} ms, "
        f"lesson (7 nodes) {small[0]:.0f} / {small[1]:.0f} ms, "
        f"ratio {large[1] / small[1]:.2f}x"
    )
    # The banners may change a moment after the pictures the latencies were read from.
    big.locator(".av-banner", has_text="step 10 of 584").wait_for()
    lesson.locator(".av-banner", has_text="step 1 of 11").wait_for()


def median_times(times: list) -> tuple[float, float]:
    """Median click-to-update and click-to-paint times (ms)."""
    return tuple(sorted(t[i] for t in times)[len(times) // 2] for i in (0, 1))
