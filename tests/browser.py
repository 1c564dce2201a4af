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


def open_player(browser, path, width: int, height: int):
    """A new context of that viewport (reduced motion: the camera jumps) with the player page at
    `path` ready; `page.errors` collects the page's uncaught errors. Returns (context, page)."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(path.as_uri())
    page.wait_for_selector(".av-player[data-ready]")
    return context, page


# Animation frames on a clock the test turns: requestAnimationFrame's callbacks run, and
# performance.now() advances, only in window.__frames(n, ms) (n frames `ms` apart; n = Infinity:
# until none is left, and a long `ms` ends a glide in one frame). Keys pressed between two
# turns land in one frame however loaded the machine is, so a race between the keys and the
# camera's glide plays out the same on every run. An init script on a page; evaluated once a
# notebook has rendered (JupyterLab's own frames then wait for the test's turns too).
FRAME_CLOCK = """
(() => {
  let now = 0;
  let next = 1;
  const queue = new Map();
  const real = window.requestAnimationFrame.bind(window);
  window.__rendered = () => new Promise((done) => real(() => real(done))); // a real frame
  performance.now = () => now;
  window.requestAnimationFrame = (fn) => { queue.set(next, fn); return next++; };
  window.cancelAnimationFrame = (id) => queue.delete(id);
  window.__frames = (n, ms = 16) => {
    for (let i = 0; i < Math.min(n, 10000) && queue.size; i++) {
      now += ms;
      const due = [...queue.values()];
      queue.clear();
      for (const fn of due) fn(now);
    }
  };
})();
"""

# The current nodes of every player in the document (a page's, a notebook's widgets) that are
# not inside its stage, as "player number:timeline step:node id".
OFF_STAGE = """
() => [...document.querySelectorAll('.av-player')].flatMap((root, side) => {
  const stage = root.querySelector('.av-stage').getBoundingClientRect();
  const svg = [...root.querySelectorAll('svg.av-svg')].find(s => s.style.display !== 'none');
  const current = [...svg.querySelectorAll('g.node.current')]
    .filter(g => !g.classList.contains('hidden'));
  const off = current.filter(g => {
    const r = g.getBoundingClientRect();
    return r.left < stage.left - 1 || r.right > stage.right + 1 ||
      r.top < stage.top - 1 || r.bottom > stage.bottom + 1;
  });
  // An overview too big to read whole is framed legibly on the most of the step's nodes it
  // holds (the minimap shows the rest): some of them on stage.
  if (svg.classList.contains('av-overview') && off.length < current.length) return [];
  return off.map(g => `${side}:${root.dataset.step}:${g.id}`);
})
"""

# From every entry of the first player, a burst of each of `lengths` presses of each arrow key,
# `gap` frames apart (0: all in one frame; a glide takes 20), sent to the focused element as the
# browser sends a key; each burst ends once the cameras rest (FRAME_CLOCK). Returns the bursts
# after which a current node is off its stage.
QUICK_KEYS = (
    """
async ([lengths, gap]) => {
  const offStage = """
    + OFF_STAGE
    + """;
  const press = (key) => document.activeElement.dispatchEvent(
    new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));
  // A page's player is reached directly; a notebook's widget by keys, as a learner would.
  const page = window.autoviz && (window.autoviz.player || window.autoviz.players[0]);
  const reach = (k) => {
    if (page) return page.request(k);
    press('Home');
    for (let i = 0; i < k; i++) press('ArrowRight');
  };
  const last = Number(document.querySelector('.av-player .av-slider').max);
  // A stage the steps resized (a narrow player's panels reflowing) is measured again by its
  // ResizeObserver, at the next rendering: the cameras rest after it.
  const sizes = () => [...document.querySelectorAll('.av-stage')]
    .map((stage) => `${stage.clientWidth}x${stage.clientHeight}`).join();
  let seen = sizes();
  const settle = async () => {
    if (sizes() !== seen) {
      seen = sizes();
      await window.__rendered();
    }
    window.__frames(Infinity, 1000);
  };
  const bad = [];
  for (let start = 0; start <= last; start++) {
    for (const [key, sign] of [['ArrowRight', 1], ['ArrowLeft', -1]]) {
      for (const n of lengths.filter((n) => start + sign * n >= 0 && start + sign * n <= last)) {
        reach(start);
        await settle();
        for (let i = 0; i < n; i++) {
          press(key);
          window.__frames(gap);
        }
        await settle();
        const off = offStage();
        if (off.length) bad.push(`${n}× ${key} from ${start}: ${off.join(' ')}`);
      }
    }
  }
  return bad;
}
"""
)


# A widget as anywidget runs it (`render({model, el})`, the layouts arriving as SVG text) on a
# stand-in model holding what the kernel sends, in a box of the given width (JupyterLab 4's
# output area is the viewport less 432 px: 934 px at 1366×768): the front-end's share of the
# widget without a Jupyter server. `window.startup` is set once its first frame is painted.
WIDGET_PAGE = """<!doctype html><meta charset="utf-8"><style>{css}</style><body>
<script type="application/json" id="state">{state}</script>
<script type="module">{module}
const state = JSON.parse(document.getElementById("state").textContent);
const area = document.createElement("div");
area.className = "jp-OutputArea-output";
area.style.width = "{width}";
const el = document.createElement("div");
area.append(el);
document.body.append(area);
const start = performance.now();
render({{ model: localModel(state), el }});
await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
window.startup = performance.now() - start;
</script>"""


def widget_page(widget, width: str = "calc(100vw - 432px)") -> str:
    """The HTML of WIDGET_PAGE for a Stepper or Comparison (its synced state)."""
    from autoviz.export import frontend
    from autoviz.export.html import embed_json

    names = ("_data", "_svgs", "_pair", "_pair_svgs", "labels", "steps", "step", "quiz")
    names += ("follow", "projector", "rankdir")
    state = {name: getattr(widget, name) for name in names if widget.has_trait(name)}
    return WIDGET_PAGE.format(
        css=frontend.stylesheet(), state=embed_json(state), module=frontend.module(), width=width
    )
