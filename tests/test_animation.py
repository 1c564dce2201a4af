"""tl.save_animation: one looping SVG stepped by CSS keyframes (no script), or a GIF."""

import io
import re
import sys
import xml.etree.ElementTree as ET

import pytest

import autoviz
from autoviz.cli import main
from autoviz.examples import LESSON_EXAMPLE
from conftest import lesson_timeline, scaling_chain

SVG = "{http://www.w3.org/2000/svg}"
ROOT = LESSON_EXAMPLE.parent.parent.parent
_RULE = re.compile(r"@keyframes (w\d+)\{(.*?)\}\}")
_STOP = re.compile(r"([\d.]+)%\{(visibility|opacity):(\w+)\}")


@pytest.fixture
def lesson(pure_engine):
    return lesson_timeline()


def training_loop():
    """Two iterations of a one-weight training loop: two graphs, one after the other."""
    w = autoviz.tensor(0.5, requires_grad=True)
    x = autoviz.tensor(2.0)
    with autoviz.trace() as tl:
        for _ in range(2):
            loss = (w * x - 3.0) ** 2
            loss.backward()
            with autoviz.no_grad():
                w -= 0.1 * w.grad
            w.grad = None
    return tl


class Animation:
    """An animated SVG read back: what it shows at a given time, as the keyframes say."""

    def __init__(self, text: str) -> None:
        self.text, self.root = text, ET.fromstring(text)
        self.seconds = float(re.search(r"\.a\{animation:([\d.]+)s step-end infinite\}", text)[1])
        self.rules = {name: _STOP.findall(body) for name, body in _RULE.findall(text)}

    def shown(self, element, t: float) -> bool:
        """Whether an element with a timing class is visible at t seconds (into the loop)."""
        names = [c for c in element.get("class", "").split() if c in self.rules]
        if not names:
            return element.get("visibility") != "hidden" and element.get("opacity") != "0"
        percent = 100 * (t % self.seconds) / self.seconds
        value = [v for p, _, v in self.rules[names[0]] if float(p) <= percent][-1]
        return value in ("visible", "1")

    def looks(self, t: float, layer: str = "graph-0") -> dict:
        """Element id -> (classes, texts) of the copy visible at t, for one graph's layer."""
        out = {}
        for wrapper in self._layer(layer):
            kinds = [(g.get("class", "") + " - -").split()[:2] for g in wrapper]
            if not [k for k in kinds if k[0] in ("node", "edge") and k[1] != "legend"]:
                continue  # not a node or edge, or the legend (which never changes)
            shown = [g for g in wrapper if self.shown(g, t)]
            assert len(shown) <= 1, f"{wrapper.get('id')}: {len(shown)} copies shown at once"
            if shown:
                classes = shown[0].get("class").split()
                kept = " ".join(c for c in classes if c != "a" and not re.fullmatch(r"w\d+", c))
                texts = [x.text for x in shown[0].iter(f"{SVG}text")]
                out[re.sub(r"^g\d+-", "", wrapper.get("id"))] = (kept, texts)
        return out

    def _layer(self, layer_id: str):
        layer = next(e for e in self.root.iter(f"{SVG}svg") if e.get("id") == layer_id)
        return layer.iter(f"{SVG}g")

    def caption(self, t: float) -> list:
        shown = [g for g in self.root.iter(f"{SVG}g") if g.get("class", "").startswith("caption")]
        return [[x.text for x in g] for g in shown if self.shown(g, t)]


def frame_looks(tl, k: int, **options) -> dict:
    """Element id -> (classes, texts) of frame k's nodes and edges, leaving out hidden ones."""
    out = {}
    for g in ET.fromstring(tl.draw(step=k, **options).svg()).iter(f"{SVG}g"):
        classes = g.get("class", "").split()
        if classes[:1] in (["node"], ["edge"]) and not {"hidden", "legend"} & set(classes):
            out[g.get("id")] = (g.get("class"), [x.text for x in g.iter(f"{SVG}text")])
    return out


def test_at_every_step_the_animation_shows_exactly_that_steps_frame(lesson, tmp_path):
    anim = Animation(lesson.save_animation(tmp_path / "a.svg", seconds_per_step=0.5).read_text())
    assert anim.seconds == (len(lesson) + 2) * 0.5  # the last frame is held for two more steps
    for k in range(len(lesson)):
        assert anim.looks(k * 0.5 + 0.25) == frame_looks(lesson, k), f"step {k}"
    assert anim.looks(anim.seconds - 0.1) == frame_looks(lesson, len(lesson) - 1)
    assert anim.looks(anim.seconds + 0.1) == frame_looks(lesson, 0)  # and it loops


def test_nodes_appear_then_gradients_flow_and_fill_in(lesson, tmp_path):
    anim = Animation(lesson.save_animation(tmp_path / "a.svg").read_text())
    first, last = anim.looks(0.5), anim.looks(11.5)
    assert set(first) == {"n1"} and "current" in first["n1"][0]  # only w, highlighted
    assert {"n7", "e6"} <= set(last)
    assert last["n2"][1] == ["x", "value: 2.0", "grad: 3.0"]
    assert anim.looks(8.5)["e1"] == ("edge data grad current", ["1.0 × 2.0 = 2.0"])
    assert anim.caption(8.5) == [
        ["Step 9 of 12 · Backward — flowing gradients", lesson.steps[8].caption]
    ]


def test_no_script_anywhere_and_one_copy_per_distinct_look(lesson, tmp_path):
    text = lesson.save_animation(tmp_path / "a.svg").read_text()
    root = ET.fromstring(text)
    assert not [e for e in root.iter() if e.tag in (f"{SVG}script", f"{SVG}foreignObject")]
    assert not [a for e in root.iter() for a in e.attrib if a.lower().startswith("on")]
    wrappers = {
        g.get("id"): g for g in root.iter(f"{SVG}g") if re.fullmatch(r"[ne]\d+", g.get("id", ""))
    }
    assert sorted(wrappers) == sorted(
        [f"n{i}" for i in range(1, 8)] + [f"e{i}" for i in range(1, 7)]
    )
    # b (n5): appears, is highlighted, gets its grad highlighted, then keeps it
    b_texts = [[t.text for t in g.iter(f"{SVG}text")][2] for g in wrappers["n5"]]
    assert b_texts == ["grad: None", "grad: None", "grad: 1.0", "grad: 1.0"]
    assert len(set(re.findall(r"@keyframes (w\d+)", text))) == text.count("@keyframes")


def test_without_animation_the_picture_is_the_last_frame(lesson, tmp_path):
    """Renderers that ignore CSS animation (and reduced-motion users) see the final state."""
    text = lesson.save_animation(tmp_path / "a.svg").read_text()
    assert "@media (prefers-reduced-motion:reduce){.a{animation:none}}" in text
    anim = Animation(text)
    anim.rules = {}  # no animation: only the static visibility attributes count
    assert anim.looks(0) == frame_looks(lesson, len(lesson) - 1)


def test_a_training_loop_animates_graph_after_graph(pure_engine, tmp_path):
    tl = training_loop()
    graphs = [s.details["graph"] for s in tl.steps]
    anim = Animation(tl.save_animation(tmp_path / "loop.svg").read_text())
    layers = {e.get("id"): e for e in anim.root.iter(f"{SVG}svg") if e.get("id")}
    # The two iterations have one structure (x and 3.0 drawn in each): they share one layout.
    assert sorted(layers) == ["graph-0"] and sorted(set(graphs)) == [0, 1]
    ids = [e.get("id") for e in anim.root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)), "ids must be unique across the layers"
    for k in range(len(graphs)):
        t = k + 0.5
        assert anim.shown(layers["graph-0"], t)
        assert anim.looks(t, "graph-0") == frame_looks(tl, k), f"step {k}"


def mlp():
    """Linear-ReLU-Linear and an MSE loss: module boxes and saved tensors in the picture."""
    autoviz.manual_seed(0)
    net = autoviz.nn.Sequential(autoviz.nn.Linear(3, 4), autoviz.nn.ReLU(), autoviz.nn.Linear(4, 1))
    x, y = autoviz.randn(2, 3), autoviz.randn(2, 1)
    with autoviz.trace() as tl:
        loss = autoviz.nn.MSELoss()(net(x), y)
        loss.backward()
    return tl


@pytest.mark.parametrize("options", [{"show_saved": True}, {"depth": 1, "collapse_above": 1}])
def test_module_boxes_and_saved_tensors_step_like_the_frames(pure_engine, tmp_path, options):
    tl = mlp()
    anim = Animation(tl.save_animation(tmp_path / "mlp.svg", **options).read_text())
    ids = set()
    for k in range(len(tl)):
        looks = anim.looks(k + 0.5)
        assert looks == frame_looks(tl, k, **options), f"step {k}"
        ids |= set(looks)
    # ids that are not the timeline's own: module boxes, saved tensors, edges between boxes
    extra = {i for i in ids if not re.fullmatch(r"[ne]\d+", i)}
    assert extra, "the options should have drawn module boxes or saved tensors"


def test_hostile_names_are_escaped(pure_engine, tmp_path):
    name = "</text><script>alert(1)</script>&"
    with autoviz.trace() as tl:
        a = autoviz.tensor(1.0, requires_grad=True, name=name)
        (a * 2.0).backward()
    root = ET.fromstring(tl.save_animation(tmp_path / "a.svg").read_text())
    assert not list(root.iter(f"{SVG}script"))
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert name in texts  # the node's label
    assert any(t.startswith(name + " is a leaf") for t in texts)  # the caption


def test_gif_has_one_frame_per_step_and_loops(lesson, tmp_path):
    from PIL import Image

    path = lesson.save_animation(tmp_path / "a.gif", seconds_per_step=0.25)
    image = Image.open(path)
    assert image.n_frames == len(lesson) and image.info["loop"] == 0
    durations = []
    pixels = []
    for k in range(image.n_frames):
        image.seek(k)
        durations.append(image.info["duration"])
        pixels.append(image.convert("RGB").tobytes())
    assert durations == [250] * (len(lesson) - 1) + [750]
    assert len(set(pixels)) == len(lesson), "every step looks different"


def test_gif_without_pillow_says_how_to_install_it(lesson, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r"^saving a GIF needs Pillow: pip install pillow$"):
        lesson.save_animation(tmp_path / "a.gif")
    assert not (tmp_path / "a.gif").exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"path": "a.mp4"}, r"unknown suffix '\.mp4' \(must be one of \['\.svg', '\.gif'\]\)"),
        ({"path": "a"}, r"unknown suffix '\(none\)'"),
        ({"seconds_per_step": 0}, r"seconds_per_step must be .* 0.02 to 600 seconds, got 0"),
        ({"seconds_per_step": True}, r"seconds_per_step must be .* 0.02 to 600 seconds, got True"),
        ({"theme": "neon"}, r"unknown theme 'neon' \(must be one of \["),
        ({"rankdr": "TB"}, r"unknown option 'rankdr' \(must be one of \["),
    ],
)
def test_bad_arguments_are_clear_errors(lesson, tmp_path, kwargs, message):
    path = tmp_path / kwargs.pop("path", "a.svg")
    with pytest.raises(ValueError, match=message):
        lesson.save_animation(path, **kwargs)


def test_an_empty_timeline_is_refused(tmp_path):
    with autoviz.trace() as tl:
        pass
    with pytest.raises(ValueError, match="this timeline has no steps"):
        tl.save_animation(tmp_path / "a.svg")


def test_captions_false_leaves_the_captions_out(pure_engine, tmp_path):
    tl = scaling_chain(20, 1.0)
    tl.save_animation(tmp_path / "a.svg", captions=False)
    assert "caption" not in (tmp_path / "a.svg").read_text()


def test_readme_animation_is_fresh(tmp_path, pure_engine, capsys):
    """assets/lesson-animation.svg must be what `autoviz animate` makes of the lesson today."""
    assert main(["animate", str(LESSON_EXAMPLE), "-o", str(tmp_path / "a.svg")]) == 0
    fresh = (tmp_path / "a.svg").read_text()
    committed = (ROOT / "assets" / "lesson-animation.svg").read_text()
    assert fresh == committed, (
        "assets/lesson-animation.svg is stale: regenerate it with `AUTOVIZ_DOT=graphviz-pure "
        "autoviz animate autoviz/examples/lesson_example.py -o assets/lesson-animation.svg`"
    )
    assert io.StringIO(fresh).readline().startswith("<?xml")
