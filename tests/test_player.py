"""The HTML player's data: per-step changes that replay to the renderer's frames, size, escaping."""

import base64
import gzip
import html
import json
import re
import xml.etree.ElementTree as ET

import pytest

import autoviz
from autoviz.export import frontend
from autoviz.export.deltas import step_deltas
from autoviz.export.html import embed_json, player_page
from autoviz.render import get_theme, make_options
from autoviz.render.frames import Frames
from autoviz.tracing.quiz import questions
from conftest import lesson_timeline
from programs import mlp_training

SVG = "{http://www.w3.org/2000/svg}"
# The player's script and stylesheet, compacted, in every page: the player itself (issue 17,
# about 42 KB), its inspector (issue 18: cards, heatmaps, timeline, nudge, compare, 43 KB), and
# room for issues 25-31 (responsive layout and overview, tensor quiz kinds, summaries, nudge
# kernels).
CODE_BUDGET = 160 * 1024
HOSTILE = "</script><script>window.__pwned=1</script>\"'&<>\n😈"


def training_loop():
    """Two iterations of a tiny training loop: two graphs sharing the leaf w."""
    w = autoviz.tensor(1.0, requires_grad=True)
    opt = autoviz.optim.SGD([w], lr=0.1)
    with autoviz.trace() as tl:
        for _ in range(2):
            opt.zero_grad()
            err = w * 3.0 - 1.0
            loss = err * err
            loss.backward()
            opt.step()
    return tl


def mlp():
    """Linear-ReLU-Linear and an MSE loss: module boxes and saved tensors in the picture."""
    autoviz.manual_seed(0)
    net = autoviz.nn.Sequential(autoviz.nn.Linear(3, 4), autoviz.nn.ReLU(), autoviz.nn.Linear(4, 1))
    x, y = autoviz.randn(2, 3), autoviz.randn(2, 1)
    with autoviz.trace() as tl:
        loss = autoviz.nn.MSELoss()(net(x), y)
        loss.backward()
    return tl


def state_changes():
    """Fan-out, retain_grad, no_grad, detach, zero_(), grad = None, an in-place update, 2 graphs."""
    a = autoviz.tensor(0.5, requires_grad=True)
    with autoviz.trace() as tl:
        b = a + a
        b.retain_grad()
        with autoviz.no_grad():
            c = a * 2.0  # noqa: F841 (recorded as a no_grad step)
        d = b.detach()
        e = b * b + d
        e.backward()
        a.grad.zero_()
        a.grad = None
        with autoviz.no_grad():
            a -= 0.1
        f = a * 3.0
        f.backward()
    return tl


def chain(n_ops: int):
    """A chain of n_ops alternating `*` and `+` on two leaves, then backward."""
    a = autoviz.tensor(0.5, requires_grad=True)
    b = autoviz.tensor(1.5, requires_grad=True)
    with autoviz.trace() as tl:
        h = a
        for i in range(n_ops):
            h = h * b if i % 2 == 0 else h + 1.0
        h.backward()
    return tl


def page_data(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="av-data">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


def page_layouts(page: str, direction: int = 0) -> list:
    """Each layout's SVG element in one direction, parsed, in data-layout order; the first
    direction is inline, the others gzipped in base64."""
    inline = r'<div data-layout="(\d+)" data-direction="(\d+)">\n(.*?)</div>'
    packed = r'<script type="text/plain" data-layout="(\d+)" data-direction="(\d+)">(.*?)</script>'
    boxes = re.findall(inline, page, re.S) + [
        (i, d, gzip.decompress(base64.b64decode(text)).decode())
        for i, d, text in re.findall(packed, page, re.S)
    ]
    chosen = sorted((int(i), svg) for i, d, svg in boxes if int(d) == direction)
    assert [i for i, _ in chosen] == list(range(len(chosen)))
    return [ET.fromstring(svg) for _, svg in chosen]


def read_slot(svg, kind: str, item_id: str, row=None) -> str:
    """What the player's script reads from the DOM: a class list, a text's content or a
    heatmap cell's fill."""
    group = next(g for g in svg.iter(f"{SVG}g") if g.get("id") == item_id)
    if kind in ("nc", "ec"):
        return group.get("class")
    if kind == "nf":
        return [p for p in group.iter(f"{SVG}polygon") if p.get("class") == "cell"][row].get("fill")
    texts = list(group.iter(f"{SVG}text"))
    text = next(t for t in texts if t.get("class") == "flow") if kind == "et" else texts[row]
    return text.text or ""


def expected_values(tl, frames, k: int, ghost: bool) -> dict:
    """Every slot of step k's layout as the renderer fills it, unescaped as the DOM shows it."""
    template, state = frames.state(k, ghost)
    out = {}
    for key in template.defaults:
        value = state.get(key, template.defaults[key])
        kind, item_id, *row = key  # the DOM has ids and texts unescaped
        out[(kind, html.unescape(item_id), *row)] = html.unescape(value)
    return out


CASES = {
    "lesson": (lesson_timeline, {}),
    "loop": (training_loop, {}),
    "mlp-boxes": (mlp, {"collapse_above": 4}),  # modules drawn as boxes
    "mlp-saved": (mlp, {"show_saved": True}),
    "states": (state_changes, {}),
    "states-inner-hidden": (state_changes, {"hide_inner_tensors": True}),
    "mlp-boxes-inner-hidden": (mlp, {"collapse_above": 4, "hide_inner_tensors": True}),
    "mlp-heatmap": (mlp, {"values": "heatmap"}),  # cells' fills are slots too
    "mlp-loop-heatmap": (lambda: mlp_training(2), {"values": "heatmap"}),  # one shared layout
}


@pytest.mark.parametrize("ghost", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("direction", [0, 1])
def test_replaying_the_page_changes_gives_every_frame_exactly(case, ghost, direction, pure_engine):
    """The script's job, done in Python from the written page: start from each inline SVG (in
    either direction), apply each step's changes, and compare every slot with the renderer's
    frame state in that direction."""
    make, options = CASES[case]
    tl = make()
    page = player_page(tl, ghost=ghost, **options)
    data, svgs = page_data(page), page_layouts(page, direction)
    rankdir = data["layouts"][0]["directions"][direction]
    frames = Frames(tl, get_theme("default"), make_options(**options, rankdir=rankdir), None)
    keys = [layout["slots"] for layout in data["layouts"]]
    pairs = zip(svgs, keys, strict=True)
    values = [[read_slot(svg, *slot) for slot in slots] for svg, slots in pairs]
    for k, step in enumerate(data["steps"]):
        changes = step["changes"]
        for i in range(0, len(changes), 2):
            values[step["layout"]][changes[i]] = data["strings"][changes[i + 1]]
        slots = [tuple(s) for s in keys[step["layout"]]]
        replayed = dict(zip(slots, values[step["layout"]], strict=True))
        assert replayed == expected_values(tl, frames, k, ghost)


def test_changes_hold_only_what_differs_from_the_previous_step(pure_engine):
    tl = lesson_timeline()
    deltas = step_deltas(Frames(tl, get_theme("default"), make_options(), None))
    assert deltas.changes[0] == []  # the inline SVG already shows step 0
    assert all(changes for changes in deltas.changes[1:])  # every step changes something
    grads = [v for changes in deltas.changes for _, v in changes if re.match(r"grad: \d", v)]
    # Each leaf's grad row gets its number once, when it is accumulated (b, w, x); no repeats.
    assert grads == ["grad: 1.0", "grad: 2.0", "grad: 3.0"]


def test_a_training_loops_iterations_share_one_layout(pure_engine):
    tl = training_loop()
    assert {s.details.get("graph", 0) for s in tl.steps} == {0, 1}
    page = player_page(tl)
    data = page_data(page)
    assert len(data["layouts"]) == 1 and page.count("<svg") == 1
    assert {s["layout"] for s in data["steps"]} == {0}


@pytest.mark.parametrize("make", [lesson_timeline, lambda: chain(50)], ids=["lesson", "chain"])
def test_page_size_is_within_three_svgs_plus_a_kilobyte_per_step(make, pure_engine):
    """What a timeline adds to the page stays within 3 × one SVG + 1 KB per step; the player's
    code (script and stylesheet, the same for every page) is counted apart, within its budget."""
    tl = make()
    assert len(tl) in (12, 106)  # the lesson example, and a timeline of over a hundred steps
    page = player_page(tl)
    single = len(tl.draw().svg().encode("utf-8"))
    code = len(frontend.module(compact=True).encode()) + len(frontend.stylesheet(True).encode())
    assert code <= CODE_BUDGET
    size = len(page.encode("utf-8")) - code
    assert size <= 3 * single + 1024 * len(tl), (size, single, len(tl))
    assert page.count("<svg") == 1  # one layout (the other way packed), never one per step
    assert len(page_layouts(page, 1)) == 1


def test_embedded_json_cannot_end_its_script_element():
    text = embed_json({"name": HOSTILE, "other": "<!-- & -->"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"name": HOSTILE, "other": "<!-- & -->"}


def test_a_hostile_name_appears_only_escaped(pure_engine):
    x = autoviz.tensor(2.0, requires_grad=True, name=HOSTILE)
    with autoviz.trace() as tl:
        y = x * 3.0
        y.backward()
    page = player_page(tl)
    assert page.count("<script") == 3  # data, player, packed layout; nothing injected
    assert page.count("</script>") == 3
    assert "__pwned" in page  # it is there, as text
    assert "<script>window.__pwned" not in page
    data = page_data(page)
    assert any(HOSTILE in s for s in data["strings"])  # the caption names it, intact


def test_only_the_page_script_may_run():
    """The Content-Security-Policy pins the one script by hash and forbids every fetch."""
    page = player_page(lesson_timeline())
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    assert "default-src 'none'" in policy
    assert re.search(r"script-src 'sha256-[A-Za-z0-9+/=]+';", policy)
    assert "unsafe-eval" not in policy and "http" not in policy
    script = re.findall(r'<script type="module">(.*?)</script>', page, re.S)[0]
    assert "eval(" not in script and "new Function" not in script and "innerHTML" not in script


def test_quiz_data_carries_question_check_sentences(pure_engine):
    tl = lesson_timeline()
    data = page_data(player_page(tl, quiz=True))
    asked = [(k, s["quiz"]) for k, s in enumerate(data["steps"]) if s["quiz"]]
    # which tensors get a .grad, what Add and Mul send on, then b, w and x's grads
    assert [q["kind"] for _, q in asked] == ["which-grad"] + ["scalar"] * 5
    expected = questions(tl)
    for k, q in asked:
        question = expected[k]
        assert q == question.data() and q["prompt"] == question.prompt
        if question.form == "number":
            assert float(q["answer"]) == question.answer
            assert q["right"] == question.check(str(question.answer))[1]
            assert q["wrong"] == question.check("1e9")[1]
            assert q["hint"] == question.check("1e9", first_try=True)[1]
            assert q["reveal"] == q["wrong"].replace("Not quite: the", "The")
    assert all(s["quiz"] is None for s in page_data(player_page(tl))["steps"])


def test_save_html_writes_the_page_and_checks_its_arguments(tmp_path, pure_engine):
    tl = lesson_timeline()
    path = tl.save_html(tmp_path / "lesson.html")
    assert path.read_text(encoding="utf-8").startswith("<!doctype html>")
    with pytest.raises(ValueError, match=r"unknown suffix '.svg' \(must be one of"):
        tl.save_html(tmp_path / "lesson.svg")
    with pytest.raises(TypeError, match=r"quiz must be True or False, or a dict .*, got 'yes'"):
        tl.save_html(tmp_path / "q.html", quiz="yes")
    with pytest.raises(ValueError, match=r"unknown theme 'neon' \(must be one of"):
        tl.save_html(tmp_path / "t.html", theme="neon")
    with pytest.raises(ValueError, match=r"unknown option 'colour' \(must be one of"):
        tl.save_html(tmp_path / "o.html", colour="red")
    with autoviz.trace() as empty:
        pass
    with pytest.raises(ValueError, match="this timeline has no steps"):
        empty.save_html(tmp_path / "e.html")


def test_options_and_theme_reach_the_picture(pure_engine):
    tl = lesson_timeline()
    page = player_page(tl, theme="dark", rankdir="BT", legend=False)
    data = page_data(page)
    assert data["theme"] == "dark" and data["rankdir"] == "BT"
    assert [layout["directions"] for layout in data["layouts"]] == [["BT", "LR"]]
    assert 'fill="#1e1e1e"' in page  # the dark theme's background in the SVG
    assert 'id="legend"' not in page
    # The SVG's own stylesheet applies to its theme's players only (a notebook has several).
    assert ".av-theme-dark .hidden { visibility: hidden; }" in page
    auto = page_data(player_page(tl))
    assert auto["rankdir"] is None and auto["layouts"][0]["directions"] == ["LR", "TB"]
