"""Themes, the legend, flags on nodes and option checking in the renderer."""

import re
import xml.etree.ElementTree as ET

import pytest

import autoviz
from autoviz.render import THEMES, Options, draw_graph
from autoviz.tracing import Graph, Node

SVG = "{http://www.w3.org/2000/svg}"


def legend_kinds(source: str) -> list[str]:
    return re.findall(r'id="legend-([\w-]+)"', source)


def test_legend_lists_only_the_kinds_present():
    a = autoviz.tensor(1.0, requires_grad=True)
    source = autoviz.draw(a.exp()).source
    assert legend_kinds(source) == ["leaf", "op", "output"]  # no intermediate, no constant
    # Every input of an op is drawn: the 2.0 of a * 2.0 is a grey constant.
    assert legend_kinds(autoviz.draw(a * 2.0).source) == ["leaf", "op", "output", "constant"]
    assert legend_kinds(autoviz.draw(a * 2.0, legend=False).source) == []


def test_no_grad_and_detached_nodes_are_dashed_and_explained():
    graph = Graph([
        Node("n1", "constant", "q", made_in_no_grad=True, value=1.0),
        Node("n2", "constant", "d", detached=True, value=2.0),
    ])  # fmt: skip
    source = draw_graph(graph).source
    assert source.count("filled,rounded,dashed") == 3  # two nodes and their legend entry
    assert legend_kinds(source) == ["constant", "no-grad"]
    assert 'class="constant no-grad"' in source and 'class="constant detached"' in source


def _corner_points(d: str) -> set:
    """The distinct points of a path's `d`, lines and curves alike, as (x, y) rounded."""
    x = y = 0.0
    points = set()
    for command, numbers in re.findall(r"([MCHVLZ])([^MCHVLZ]*)", d):
        values = [float(v) for v in re.split(r"[ ,]+", numbers.strip()) if v]
        if command == "H":
            x = values[-1]
        elif command == "V":
            y = values[-1]
        elif values:
            x, y = values[-2], values[-1]
            points.update(zip(values[0::2], values[1::2], strict=True))
        points.add((x, y))
    return {(round(px, 1), round(py, 1)) for px, py in points}


def test_rounded_boxes_are_drawn_with_dots_own_corners(engine):
    """The layout runs with square boxes (dot's 26-point rounded paths cost a seventh of it) and
    autoviz rounds them: the same outline, on every engine, dashed boxes too."""
    from autoviz.render.layout import run_layout

    graph = Graph([
        Node("n1", "leaf", "w", value=2.0, requires_grad=True, grad=3.0),
        Node("n2", "constant", "q", made_in_no_grad=True, value=1.0),
        Node("n3", "op", "", op="MulBackward0"),
        Node("n4", "output", "y", value=2.0, requires_grad=True),
    ])  # fmt: skip
    diagram = draw_graph(graph)
    assert "rounded" in diagram.source  # the DOT a user saves keeps dot's rounded style
    ours = ET.fromstring(diagram.svg())
    theirs = ET.fromstring(run_layout(diagram.source).decode())  # rounded by the engine

    def outline(root, node_id):
        group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == node_id)
        return next(e for e in group if e.tag in (f"{SVG}path", f"{SVG}polygon"))

    for node_id in ("n1", "n2", "n4", "legend-leaf", "legend-no-grad"):
        mine, dots = outline(ours, node_id), outline(theirs, node_id)
        assert mine.tag == f"{SVG}path" and mine.get("d").count("C") == 4
        assert _corner_points(mine.get("d")) == _corner_points(dots.get("d"))
        for attr in ("fill", "stroke", "stroke-width", "stroke-dasharray"):
            assert mine.get(attr) == dots.get(attr), (node_id, attr)
    ellipse = next(g for g in ours.iter(f"{SVG}g") if g.get("id") == "n3")
    assert ellipse.find(f"{SVG}ellipse") is not None  # an op stays an ellipse


def test_non_finite_values_are_flagged():
    graph = Graph(
        [Node("n1", "leaf", "x", value=float("nan"), requires_grad=True, grad=float("inf"))]
    )
    source = draw_graph(graph).source
    assert "value: nan ⚠ not finite" in source and "grad: inf ⚠ not finite" in source
    assert 'class="leaf non-finite"' in source


@pytest.mark.parametrize("theme", list(THEMES))
def test_each_theme_renders_with_its_colours(theme, pure_engine):
    x = autoviz.tensor(2.0, requires_grad=True)
    diagram = autoviz.draw(x * 3.0, theme=theme)
    look = THEMES[theme]
    assert f'fillcolor="{look.kinds["leaf"]["fill"]}"' in diagram.source
    svg = diagram.svg()
    assert look.kinds["op"]["fill"].lower() in svg.lower()
    ET.fromstring(svg)


def test_projector_theme_is_bigger_and_bolder():
    projector, default = THEMES["projector"], THEMES["default"]
    assert projector.font_size > default.font_size and projector.pen > default.pen


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("rankdir", "XY", r"unknown rankdir 'XY' \(must be one of \['LR', 'TB', 'BT', 'RL'\]\)"),
        ("op_label", "emoji", r"unknown op_label 'emoji' \(must be one of"),
        ("precision", 0, "precision must be an integer from 1 to 17"),
        ("legend", "yes", "legend must be True or False"),
    ],
)
def test_invalid_options_list_valid_values(option, value, message):
    with pytest.raises(ValueError, match=message):
        Options(**{option: value})


def test_unknown_theme_lists_the_valid_ones():
    with pytest.raises(ValueError, match=r"\['default', 'colorblind', 'projector', 'dark'\]"):
        draw_graph(Graph(), theme="neon")


HOSTILE = [
    "</text><script>alert(1)</script>",
    'say "hi"',
    "{braces}",
    "back\\slash",
    "new\nline",
    "emoji 🎉",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_stay_text(name, engine):
    t = autoviz.tensor(1.0, requires_grad=True, name=name)
    diagram = autoviz.draw(t * 2.0)
    assert "<script>" not in diagram.source
    root = ET.fromstring(diagram.svg())
    assert not list(root.iter(f"{SVG}script"))
    texts = [el.text for el in root.iter(f"{SVG}text")]
    shown = name.replace("\n", "\\n")  # control characters are shown escaped
    assert shown in texts


def test_save_json_and_pdf(tmp_path, engine):
    import json

    x = autoviz.tensor(2.0, requires_grad=True, name="x")
    diagram = autoviz.draw(x * 3.0)
    doc = json.loads(diagram.save(tmp_path / "g.json").read_text())
    assert doc["format"] == "autoviz-graph" and [n["kind"] for n in doc["nodes"]] == [
        "leaf", "constant", "op", "output", ]  # fmt: skip
    if engine == "dot":
        assert diagram.save(tmp_path / "g.pdf").read_bytes().startswith(b"%PDF")
    else:
        with pytest.raises(autoviz.errors.LayoutError, match=r"cannot write 'pdf'.*save as \.svg"):
            diagram.save(tmp_path / "g.pdf")


def test_unknown_option_names_are_listed():
    x = autoviz.tensor(2.0, requires_grad=True)
    with pytest.raises(ValueError, match=r"unknown option 'colour' \(must be one of \['rankdir'"):
        autoviz.draw(x * 2.0, colour="red")
