"""Hostile text through every output: names, module paths, saved names, captions, source
lines and file names from a shared timeline file; control characters and lone surrogates;
names too long for a label. Everything stays text: well-formed XML, nothing that runs or
fetches, PNG and GIF still made."""

import html.parser
import json
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoviz
from autoviz.render.labels import MAX_ROW, escape, visible, visible_data, visible_lines
from autoviz.tracing.model import Graph, Node
from conftest import as_records, mlp_timeline

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = [
    '"><script>alert(1)</script>',
    '" URL="javascript:alert(2)" href="https://example.com/x',
    "]; evil [URL=\"https://example.com/a.svg\" label=<<img src='x'/>>]; x [",
    "<img src=x onerror=alert(3)>",
    "</style><style>*{background:url(https://example.com/c)}</style>",
    "{{js}}{{data}}<!--",
    "\u202egnp.exe\u202c",
    "back\\slash \\N \\G",
]
CONTROL = "esc\x1b[31m nul\x00 vt\x0b ff\x0c nonchar\ufffe\uffff lone\ud800 bidi\u202e!"
# What SVG and HTML made from user text may not hold: scripts, links, images, event handlers.
ACTIVE_TAGS = {"script", "a", "image", "img", "iframe", "object", "embed", "foreignobject", "use"}


def _active_attribute(name: str, value: str) -> bool:
    name = name.lower().rsplit("}", 1)[-1]
    return name.startswith("on") or name in ("href", "src") or "url(" in value


def hostile_timeline():
    """The MLP's timeline with every free text of its file replaced by hostile text."""
    doc = as_records(mlp_timeline().to_json())
    texts = iter(HOSTILE * 1000)
    for node in doc["nodes"]:
        node["name"] = next(texts)
        node["module"] = [[next(texts), next(texts)] for _ in node["module"]]
        for entry in node["saved"]:
            entry["name"] = next(texts)
    for step in doc["steps"]:
        step["caption"] = next(texts)
        if step["source"] is not None:
            step["source"]["file"] = next(texts)
            step["source"]["text"] = next(texts)
    return autoviz.Timeline.from_json(json.dumps(doc))


def assert_inert_svg(svg: str) -> None:
    """Well-formed, and nothing in it runs, links or fetches (user text is only text)."""
    for element in ET.fromstring(svg).iter():
        tag = element.tag.rsplit("}", 1)[-1].lower()
        assert tag not in ACTIVE_TAGS, tag
        assert not [a for a, v in element.attrib.items() if _active_attribute(a, v)], element
        if tag == "style":
            assert "url(" not in element.text and "@import" not in element.text


def svg_texts(svg: str) -> list[str]:
    return ["".join(el.itertext()) for el in ET.fromstring(svg).iter(f"{SVG}text")]


@pytest.fixture(scope="module")
def hostile():
    return hostile_timeline()


def test_hostile_text_in_a_timeline_file_stays_text_in_every_svg(hostile, tmp_path, engine):
    tl = hostile
    shown = set()
    for k in range(len(tl)):
        frame = tl.draw(step=k, show_saved=True).svg()
        assert_inert_svg(frame)
        shown.update(svg_texts(frame))
    assert {h for h in HOSTILE if visible(h) in shown} == set(HOSTILE)  # drawn, literally
    final = tl[-1]
    final.current = []
    diagram = autoviz.draw(final, show_saved=True)
    assert_inert_svg(diagram.svg())
    drawn = set(svg_texts(diagram.svg()))
    assert {h for h in HOSTILE if visible(h) in drawn} == set(HOSTILE)  # dot read no \\N
    assert diagram.png().startswith(b"\x89PNG")
    assert_inert_svg(diagram.save(tmp_path / "g.svg").read_text("utf-8"))
    for path in tl.save_frames(tmp_path / "frames"):
        assert_inert_svg(path.read_text("utf-8"))
    assert_inert_svg(tl.save_animation(tmp_path / "a.svg").read_text("utf-8"))


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags, self.active = [], []

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "script" and dict(attrs).get("type") in ("application/json", "text/plain"):
            tag = "data"  # inert: a browser runs no such script
        self.tags.append(tag)
        self.active += [(a, v) for a, v in attrs if _active_attribute(a, v or "")]


def test_hostile_text_in_a_timeline_file_stays_text_in_the_player(hostile, tmp_path, engine):
    page = hostile.save_html(tmp_path / "p.html", quiz=True).read_text("utf-8")
    parsed = _Tags()
    parsed.feed(page)
    assert parsed.tags.count("script") == 1  # the player's own
    assert parsed.tags.count("script") + parsed.tags.count("data") == page.count("<script")
    assert not (ACTIVE_TAGS - {"script"}) & set(parsed.tags)
    assert parsed.active == []
    assert "{{js}}{{data}}" in page  # markers in user text stay literal, filled by nothing


def test_hostile_text_in_a_timeline_file_stays_text_in_the_stepper(hostile, engine):
    stepper = autoviz.Stepper(hostile, quiz=True)
    for k in (0, len(hostile) // 2, len(hostile) - 1):
        stepper.step = k
        assert_inert_svg(stepper.frame_svg)
    for variants in stepper._svgs:
        for svg in variants:
            assert_inert_svg(svg)


def control_timeline():
    x = autoviz.tensor(2.0, requires_grad=True, name=CONTROL)
    with autoviz.trace() as tl:
        y = x * 3.0
        y.backward()
    return tl


def test_control_characters_are_spelled_out_in_every_output(tmp_path, engine):
    """ESC, NUL, VT, FF, U+FFFE/U+FFFF, a lone surrogate and a bidi override: each output shows
    the escape draw() shows (`\\x1b`, `\\ud800`, `\\u202e`), and stays valid XML and UTF-8."""
    tl = control_timeline()
    spelled = visible(CONTROL)
    assert "\\x1b" in spelled and "\\ud800" in spelled and "\\u202e" in spelled
    static = autoviz.draw(tl[-1])
    assert spelled in svg_texts(static.svg())
    assert static.save(tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
    for k in range(len(tl)):
        frame = tl.draw(step=k).svg()
        ET.fromstring(frame)
        assert spelled in svg_texts(frame) or k == 0
    for path in tl.save_frames(tmp_path / "svg"):
        ET.fromstring(path.read_text("utf-8"))
    animation = tl.save_animation(tmp_path / "a.svg").read_text("utf-8")
    assert spelled in svg_texts(animation)
    if engine == "graphviz-pure":  # rasters are of the frames' SVG, whichever engine laid it out
        assert all(p.read_bytes()[:4] == b"\x89PNG" for p in tl.save_frames(tmp_path, "png"))
        pytest.importorskip("PIL", reason="pip install pillow")
        assert tl.save_animation(tmp_path / "a.gif").read_bytes()[:6] == b"GIF89a"
    page = tl.save_html(tmp_path / "p.html").read_text("utf-8")
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\u202e]", page)
    assert escape(CONTROL) in page or json.dumps(spelled)[1:-1] in page
    stepper = autoviz.Stepper(tl)
    stepper.step = -1
    assert spelled in svg_texts(stepper.frame_svg)
    sent = json.dumps(stepper._data, ensure_ascii=False)  # what the widget sends the browser
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\u202e\ud800]", sent)
    assert json.dumps(spelled, ensure_ascii=False)[1:-1] in sent


def test_a_name_too_long_for_a_label_is_shortened_with_the_whole_name_as_tooltip(engine):
    long = "weight_of_a_\\N_deep_layer_" * 800  # 22,400 characters: dot refuses such a label
    x = autoviz.tensor(2.0, requires_grad=True, name=long)
    with autoviz.trace() as tl:
        y = x * 3.0
        y.backward()
    for svg in (autoviz.draw(y).svg(), tl.draw(step=-1).svg()):
        group = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("id") == "n1")
        first = "".join(next(group.iter(f"{SVG}text")).itertext())
        assert first == long[: MAX_ROW - 1] + "…"
        name, value, grad = group.find(f"{SVG}title").text.split("\n")
        assert long.startswith(name[:-1]) and name.endswith("…") and len(name) > 1500
        assert (value, grad) == ("value: 2.0", "grad: 3.0")
        assert group.find(f"{SVG}a") is None  # the tooltip is the node's title, not a link
    assert tl.draw(step=-1).png().startswith(b"\x89PNG")


def test_ids_that_are_not_plain_names_are_refused_before_dot():
    node = Node(id='n1" URL="javascript:alert(1)', kind="leaf", name="x")
    with pytest.raises(ValueError, match="cannot draw a node with id"):
        autoviz.draw(Graph(nodes=[node])).source  # noqa: B018


_TEXT = st.text(st.characters(exclude_categories=()))  # lone surrogates too
_JSON = st.recursive(
    st.none() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)


def _strings(data):
    """Every string in JSON-like data, keys included, in order."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [k, *_strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


@settings(max_examples=200, deadline=None)
@given(_JSON)
def test_player_data_has_every_string_made_visible(data):
    """The player's data: each string (keys too) as visible_lines writes it, whatever the
    characters, and the same JSON otherwise; fast when nothing needs spelling out."""
    shown = visible_data(data)
    assert _strings(shown) == [visible_lines(s) for s in _strings(data)]
    assert all(line.isprintable() for s in _strings(shown) for line in s.split("\n"))
    if all(s == visible_lines(s) for s in _strings(data)):
        assert json.dumps(shown) == json.dumps(data)
