"""Stepping frames: one layout per graph, restyled per step; nodes never move."""

import re
import struct
import xml.etree.ElementTree as ET

import pytest

import autoviz
import autoviz.render.frames as frames_module
import autoviz.render.raster as raster
from autoviz.render import Options
from conftest import lesson_timeline, scaling_chain

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def lesson(pure_engine):
    return lesson_timeline()


def groups(svg: str) -> dict:
    """id -> (class, shape geometry, texts) for every node and edge group."""
    out = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("id", "")[:1] in "ne" and g.get("id")[1:].isdigit():
            shape = next(
                (el for el in g if el.tag.split("}")[1] in ("path", "polygon", "ellipse")), None
            )
            geometry = dict(shape.attrib) if shape is not None else {}
            geometry.pop("class", None)
            texts = [t.text for t in g.iter(f"{SVG}text")]
            out[g.get("id")] = (g.get("class"), geometry, texts)
    return out


def test_every_frame_has_the_same_node_positions(lesson):
    frames = [groups(lesson.draw(step=k).svg()) for k in range(len(lesson))]
    for frame in frames[1:]:
        assert {i: g[1] for i, g in frame.items()} == {i: g[1] for i, g in frames[0].items()}


def test_frames_never_call_the_layout_engine_again(lesson, monkeypatch):
    calls = []
    real = frames_module.svg_layout
    monkeypatch.setattr(frames_module, "svg_layout", lambda *a: calls.append(1) or real(*a))
    for k in range(len(lesson)):
        lesson.draw(step=k, theme="dark").svg()
    assert len(calls) == 1


def test_nodes_appear_step_by_step_and_the_current_one_is_highlighted(lesson):
    step2 = groups(lesson.draw(step=2).svg())
    assert step2["n3"][0] == "node op current" and step2["n4"][0] == "node intermediate current"
    assert "hidden" in step2["n5"][0] and "hidden" in step2["n7"][0]  # b and z not made yet
    assert "hidden" in step2["e4"][0]  # y -> + not yet


def test_backward_edges_carry_the_chain_rule(lesson):
    mul_step = 8
    frame = groups(lesson.draw(step=mul_step).svg())
    labels = {frame[e][2][0] for e in ("e1", "e2")}
    assert labels == {"1.0 × 2.0 = 2.0", "1.0 × 3.0 = 3.0"}
    assert frame["e1"][0] == "edge data grad current"
    assert frame["e4"][0] == "edge data grad"  # AddBackward0's flow, one step earlier
    assert frame["e6"][0] == "edge data"  # the forward edge into z carries no gradient


def test_leaf_gradients_fill_in_as_they_accumulate(lesson):
    def grad_row(k, node_id):
        return groups(lesson.draw(step=k).svg())[node_id][2][-1]

    w, x = "n1", "n2"
    assert grad_row(8, w) == "grad: None" and grad_row(9, w) == "grad: 2.0"
    assert grad_row(9, x) == "grad: None" and grad_row(10, x) == "grad: 3.0"


def test_text_stays_centred_on_its_node(lesson):
    svg = lesson.draw(step=10).svg()
    for match in re.finditer(r'<g id="n\d+" class="node[^"]*">(.*?)</g>', svg, re.S):
        anchors = set(re.findall(r'text-anchor="(\w+)"', match.group(1)))
        assert anchors == {"middle"}


def test_ghost_option_shows_future_nodes_faintly(lesson):
    frame = groups(lesson.draw(step=0, ghost=True).svg())
    assert frame["n7"][0] == "node output ghost"


def png_size(data: bytes) -> tuple:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])  # IHDR: width, height


def svg_size_pt(svg: str) -> tuple:
    root = ET.fromstring(svg)
    return tuple(round(float(root.get(k).removesuffix("pt"))) for k in ("width", "height"))


@pytest.mark.parametrize("rasteriser", ["rsvg-convert", "resvg-py"])
def test_a_frame_saves_as_png_rasterised_from_its_svg(lesson, tmp_path, monkeypatch, rasteriser):
    if rasteriser == "resvg-py":  # what a pip install alone gives: no Graphviz, no librsvg
        monkeypatch.delenv("AUTOVIZ_DOT")
        monkeypatch.setenv("PATH", str(tmp_path))
        assert raster.find_rsvg() is None
    elif raster.find_rsvg() is None:
        pytest.skip("rsvg-convert is not installed")
    diagram = lesson.draw(step=3)
    assert diagram.save(tmp_path / "f.svg").read_text().startswith("<?xml")
    data = diagram.save(tmp_path / "f.png").read_bytes()
    width, height = svg_size_pt(diagram.svg())
    # The SVG rasterised at 144 dpi: 2 pixels per point, the same picture as the SVG frame.
    assert png_size(data) == pytest.approx((2 * width, 2 * height), abs=2)


def test_a_frame_refuses_pdf_clearly(lesson, tmp_path):
    with pytest.raises(ValueError, match=r"cannot save a stepping frame as \.pdf"):
        lesson.draw(step=3).save(tmp_path / "f.pdf")


def test_png_frames_all_have_the_size_of_the_one_layout(lesson, tmp_path):
    paths = lesson.save_frames(tmp_path, format="png")
    assert [p.name for p in paths] == [f"step-{k:03d}.png" for k in range(len(lesson))]
    sizes = {png_size(p.read_bytes()) for p in paths}
    assert len(sizes) == 1
    width, height = svg_size_pt(lesson.draw(step=0).svg())
    assert sizes.pop() == pytest.approx((2 * width, 2 * height), abs=2)


def test_hostile_names_are_escaped_in_frames(pure_engine):
    with autoviz.trace() as tl:
        a = autoviz.tensor(1.0, requires_grad=True, name="</text><script>x</script>&")
        (a * 2.0).backward()
    svg = tl.draw(step=len(tl) - 1).svg()
    root = ET.fromstring(svg)
    assert not list(root.iter(f"{SVG}script"))
    assert "</text><script>x</script>&" in [t.text for t in root.iter(f"{SVG}text")]


def test_save_frames_writes_one_numbered_svg_per_step(lesson, tmp_path):
    paths = lesson.save_frames(tmp_path / "slides")
    assert [p.name for p in paths] == [f"step-{k:03d}.svg" for k in range(len(lesson))]
    first, last = paths[0].read_text(), paths[-1].read_text()
    assert '<g id="n7" class="node output hidden">' in first
    assert "grad: 3.0" in last


def test_save_frames_rejects_unknown_formats(lesson, tmp_path):
    expected = r"unknown frame format 'gif' \(must be one of \['svg', 'png'\]"
    with pytest.raises(ValueError, match=expected):
        lesson.save_frames(tmp_path, format="gif")


def busy_timeline():
    """Two training iterations with retain_grad, no_grad, detach, zero_grad and an update."""
    w = autoviz.tensor([0.5, -1.0], requires_grad=True)
    b = autoviz.tensor(0.25, requires_grad=True)
    with autoviz.trace() as tl:
        for _ in range(2):
            h = (w * 2.0 + b).tanh()
            h.retain_grad()
            with autoviz.no_grad():
                h.mean() * 3.0
            h.detach()
            loss = (h * h).sum()
            loss.backward()
            with autoviz.no_grad():
                w -= 0.1 * w.grad
            w.grad.zero_()
            b.grad = None
    return tl


@pytest.mark.parametrize("hide", [False, True], ids=["all-tensors", "inner-hidden"])
@pytest.mark.parametrize("ghost", [False, True])
@pytest.mark.parametrize("make", [lesson_timeline, busy_timeline])
def test_frames_derived_step_by_step_equal_frames_computed_whole(pure_engine, make, ghost, hide):
    tl = make()
    options = Options(hide_inner_tensors=hide)
    frames = frames_module.Frames(tl, autoviz.render.get_theme("default"), options)
    order = [*range(len(tl)), 3, 4, len(tl) - 1, 0]  # forward, then a jump back and on
    for k in order:
        template, state = frames.state(k, ghost)
        whole = template.fill(state)
        assert frames.svg(k, ghost=ghost) == whole, f"step {k}"
    # the busy timeline's two iterations have one structure: they share one layout
    assert frames.layout_calls == 1


def test_save_frames_replaces_an_earlier_runs_frames(tmp_path, pure_engine):
    """A folder reused for a shorter timeline holds only the new frames (and the user's files)."""
    short, long = lesson_timeline(), scaling_chain(6, 2.0)
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "step-intro.svg").write_text("mine too")
    long.save_frames(tmp_path)
    written = short.save_frames(tmp_path)
    frames = sorted(p.name for p in tmp_path.glob("step-[0-9]*.svg"))
    assert frames == [p.name for p in written] and len(frames) == len(short) < len(long)
    assert (tmp_path / "notes.txt").exists() and (tmp_path / "step-intro.svg").exists()
