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
