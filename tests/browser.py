"""A headless Chromium for browser tests, driven by Playwright (Debian's chromium, no download)."""

import os
import shutil

import pytest

# Without the background-networking flags Chromium keeps trying Google's hosts, which a closed
# classroom or CI network refuses; the sandbox needs user namespaces that root in CI lacks.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """The browser to drive: $AUTOVIZ_CHROMIUM, else chromium or google-chrome on PATH."""
    env = os.environ.get("AUTOVIZ_CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the whole session (skipped, so failed in CI, when none is installed)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]'")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium: apt-get install chromium (or set $AUTOVIZ_CHROMIUM)")
    with sync_api.sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    """A fresh page; `page.requests` lists every URL it asked for (tests check for none)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    new_page = context.new_page()
    new_page.requests = []
    new_page.on("request", lambda request: new_page.requests.append(request.url))
    yield new_page
    context.close()
