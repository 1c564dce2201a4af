"""autoviz.draw: the lesson example's DOT, SVG from both layout engines, saving, escaping."""

import re
import xml.etree.ElementTree as ET

import pytest

import autoviz
from autoviz import nn
from autoviz.errors import LayoutEngineNotFound, LayoutTimeout
from autoviz.render.theme import FONT_FAMILY
from conftest import GOLDEN, lesson_example

SVG = "{http://www.w3.org/2000/svg}"


def lesson_diagram(**options):
    t = lesson_example()
    t["z"].backward()
    x, w, b, y, z = (t[k] for k in "xwbyz")  # the names draw() must find
    assert x.is_leaf and w.is_leaf and b.is_leaf and not y.is_leaf
    return autoviz.draw(z, **options)


def svg_nodes(svg: str) -> dict:
    root = ET.fromstring(svg)
    groups = root.iter(f"{SVG}g")
    return {
        g.get("id"): g.get("class")
        for g in groups
        if (g.get("class") or "").startswith("node") and "legend" not in g.get("class")
    }


def test_dot_matches_golden_file():
    expected = (GOLDEN / "lesson_example.dot").read_text()
    assert lesson_diagram().source == expected


def test_names_come_from_the_callers_variables():
    source = lesson_diagram().source
    for name in "xwbyz":
        assert f"<b>{name}</b>" in source


def test_explicit_name_wins_and_unnamed_tensors_get_numbers():
    a = autoviz.tensor(2.0, requires_grad=True, name="alpha")
    diagram = autoviz.draw(a * autoviz.tensor(4.0, requires_grad=True) + 1.0)
    assert "<b>alpha</b>" in diagram.source
    assert "<b>t1</b>" in diagram.source and "<b>t2</b>" in diagram.source


def test_kinds_and_shapes_follow_the_visual_grammar():
    source = lesson_diagram().source
    kinds = dict(re.findall(r'class="(\w+)" shape="(\w+)"', source))
    assert kinds == {"leaf": "box", "op": "ellipse", "intermediate": "box", "output": "box"}
    output = next(line for line in source.splitlines() if 'class="output"' in line)
    assert 'penwidth="3.0"' in output  # heavier border than every other node
    assert "grad: None (not retained)" in source  # y after backward


def test_svg_structure_from_each_engine(engine):
    svg = lesson_diagram().svg()
    # Laid out in Arial alone, shown with its look-alikes and sans-serif for viewers without it.
    assert set(re.findall(r'font-family="([^"]*)"', svg)) == {FONT_FAMILY}
    assert FONT_FAMILY.startswith("Arial,") and FONT_FAMILY.endswith(",sans-serif")
    nodes = svg_nodes(svg)
    assert nodes == {
        "n1": "node leaf",
        "n2": "node leaf",
        "n3": "node op",
        "n4": "node intermediate",
        "n5": "node leaf",
        "n6": "node op",
        "n7": "node output",
    }
    edges = re.findall(r'<g id="(e\d+)" class="edge data"', svg)
    assert edges == [f"e{i}" for i in range(1, 7)]


@pytest.mark.parametrize("suffix", [".svg", ".png", ".dot"])
def test_save_by_suffix(tmp_path, suffix, engine):
    path = lesson_diagram().save(tmp_path / f"graph{suffix}")
    data = path.read_bytes()
    assert {".svg": b"<svg", ".png": b"\x89PNG", ".dot": b"digraph"}[suffix] in data[:300]


def test_save_rejects_unknown_suffix(tmp_path):
    with pytest.raises(ValueError, match=r"unknown suffix '\.jpeg' \(must be one of \['\.svg'"):
        lesson_diagram().save(tmp_path / "graph.jpeg")


def test_jupyter_mimebundle_is_svg(pure_engine):
    bundle = lesson_diagram()._repr_mimebundle_()
    assert bundle["image/svg+xml"].lstrip().startswith("<?xml")


def test_missing_engine_error_says_how_to_fix(monkeypatch):
    monkeypatch.delenv("AUTOVIZ_DOT", raising=False)
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr("autoviz.render.layout._bundled", lambda: None)
    diagram = lesson_diagram()
    with pytest.raises(
        LayoutEngineNotFound, match=r"Install Graphviz.*pip install --force-reinstall graphviz-pure"
    ):
        diagram.svg()
    assert diagram.source.startswith("digraph")  # the DOT text stays available
    assert "graphviz-pure" in diagram._repr_mimebundle_()["text/plain"]


def test_bad_autoviz_dot_is_reported(monkeypatch):
    monkeypatch.setenv("AUTOVIZ_DOT", "/no/such/dot")
    with pytest.raises(LayoutEngineNotFound, match="AUTOVIZ_DOT is set to '/no/such/dot'"):
        lesson_diagram().svg()


def test_layout_timeout(tmp_path, monkeypatch):
    slow = tmp_path / "slow-dot"
    slow.write_text("#!/bin/sh\nsleep 5\n")
    slow.chmod(0o755)
    monkeypatch.setenv("AUTOVIZ_DOT", str(slow))
    with pytest.raises(LayoutTimeout, match=r"within 0\.2 s"):
        lesson_diagram(timeout=0.2).svg()


HOSTILE = 'a<b>"c"&d\\e'


def test_hostile_name_is_escaped_in_dot_and_svg(engine):
    t = autoviz.tensor(1.0, requires_grad=True, name=HOSTILE)
    diagram = autoviz.draw(t * 2.0)
    assert "a&lt;b&gt;&quot;c&quot;&amp;d\\\\e" in diagram.source  # dot reads \\ as one \
    svg = diagram.svg()
    ET.fromstring(svg)  # still well-formed XML
    texts = [el.text for el in ET.fromstring(svg).iter(f"{SVG}text")]
    assert HOSTILE in texts  # shown literally, never as markup


def test_unknown_option_values_list_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown rankdir 'XY' \(must be one of \['LR', 'TB'"):
        lesson_diagram(rankdir="XY")
    with pytest.raises(ValueError, match=r"unknown theme 'neon' \(must be one of"):
        lesson_diagram(theme="neon")


def test_without_system_dot_the_bundled_graphviz_pure_is_used(monkeypatch):
    """A laptop with no Graphviz: the engine installed with autoviz lays the graph out."""
    from autoviz.render.layout import find_engine

    monkeypatch.delenv("AUTOVIZ_DOT", raising=False)
    monkeypatch.setenv("PATH", "")
    assert find_engine().endswith("graphviz-pure")
    assert "<svg" in lesson_diagram().svg()


def fan_out_diagram():
    a = autoviz.tensor(2.0, requires_grad=True)
    b = a + a
    c = b * b
    c.backward()
    return autoviz.draw(c)


def broadcast_diagram():
    a = autoviz.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = autoviz.tensor(2.0, requires_grad=True)
    p = a * s
    total = p.sum()
    total.backward()
    return autoviz.draw(total)


def grouped_mlp_diagram():
    autoviz.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    loss_fn = nn.MSELoss()
    x = autoviz.randn(2, 3)
    y = autoviz.randn(2, 1)
    loss = loss_fn(net(x), y)
    loss.backward()
    return autoviz.draw(loss, show_saved=True)


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("fan_out", fan_out_diagram),
        ("broadcast", broadcast_diagram),
        ("grouped_mlp", grouped_mlp_diagram),
    ],
)
def test_more_dot_matches_golden_files(name, make):
    assert make().source == (GOLDEN / f"{name}.dot").read_text()
