"""Long timelines: work linear in their length, one layout per structure, summaries for huge graphs.

Costs are counted, never timed: how many of the timeline's nodes, edges and steps a view reads,
and how many labels it writes, as the number of iterations grows.
"""

import json
import re
import xml.etree.ElementTree as ET

import pytest

import autoviz
import autoviz.render.frames as frames_module
from autoviz.export.html import player_page
from autoviz.render import get_theme, make_options
from autoviz.render.dot import label_rows
from autoviz.render.frames import Frames
from autoviz.tracing.text import number

SVG = "{http://www.w3.org/2000/svg}"


def sgd_loop(iterations: int, big_at=None, big_ops=40):
    """An nn.Linear fitted with optim.SGD on a new batch each iteration; iteration `big_at`
    adds a long chain to its loss."""
    autoviz.manual_seed(0)
    net = autoviz.nn.Linear(3, 1)
    opt = autoviz.optim.SGD(net.parameters(), lr=0.1)
    with autoviz.trace() as tl:
        for i in range(iterations):
            x, y = autoviz.randn(4, 3), autoviz.randn(4, 1)
            opt.zero_grad()
            loss = ((net(x) - y) ** 2).mean()
            if i == big_at:
                for _ in range(big_ops):
                    loss = loss * 1.0
            loss.backward()
            opt.step()
    len(tl)  # built here, outside what the tests count
    return tl


class Counted(list):
    """A list that counts the items read from it, one by one or by iteration."""

    reads = 0

    def __iter__(self):
        Counted.reads += len(self)
        return super().__iter__()

    def __getitem__(self, i):
        Counted.reads += len(range(len(self))[i]) if isinstance(i, slice) else 1
        return super().__getitem__(i)


def counting(tl):
    """`tl` with its nodes, edges and steps in Counted lists."""
    tl._nodes, tl._edges, tl._steps = Counted(tl._nodes), Counted(tl._edges), Counted(tl._steps)
    Counted.reads = 0
    return tl


def reads(work, tl) -> int:
    Counted.reads = 0
    work(counting(tl))
    return Counted.reads


def size(tl) -> int:
    return len(tl.nodes) + len(tl.edges) + len(tl.steps)


@pytest.mark.parametrize(
    "work",
    [
        lambda tl: player_page(tl),
        lambda tl: [tl.draw(step=k).svg() for k in range(len(tl))],
        lambda tl: [tl[k] for k in range(len(tl))],
    ],
    ids=["save_html", "every frame", "every snapshot"],
)
def test_exports_read_the_timeline_a_constant_number_of_times(work, pure_engine):
    """A view that walked the whole timeline once per graph would read it 8x more per item
    at 16 iterations than at 2; linear work reads it as often per item at any length."""
    short, long = sgd_loop(2), sgd_loop(16)
    per_item = [reads(work, tl) / size(tl) for tl in (short, long)]
    assert per_item[1] <= 1.2 * per_item[0], per_item


def test_a_jump_to_another_graph_reads_only_that_graph(pure_engine):
    def jump(tl):
        frames = Frames(tl, get_theme("default"), make_options())
        last = len(tl) - 1
        frames.svg(last)  # the one layout, and the index, made once
        first_of_graph = next(s.index for s in tl.steps if s.details["graph"] == 1)
        start = Counted.reads
        frames.svg(first_of_graph + 3)
        return Counted.reads - start

    counted = []
    for iterations in (3, 24):
        tl = counting(sgd_loop(iterations))
        counted.append(jump(tl))
    assert counted[0] == counted[1]


def test_labels_written_per_iteration_do_not_grow(pure_engine, monkeypatch):
    calls = []
    monkeypatch.setattr(frames_module, "label_rows", lambda *a: calls.append(1) or label_rows(*a))
    counts = []
    for iterations in (4, 8, 16):
        calls.clear()
        player_page(sgd_loop(iterations))
        counts.append(len(calls))
    # the labels one more iteration costs do not grow with the iterations before it
    assert (counts[2] - counts[1]) / 8 <= (counts[1] - counts[0]) / 4, counts


def groups(svg: str) -> dict:
    """Node id -> (shape geometry, texts) in a frame."""
    out = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if re.fullmatch(r"n\d+", g.get("id", "")):
            shape = next(el for el in g if el.tag.split("}")[1] in ("path", "polygon", "ellipse"))
            out[g.get("id")] = (dict(shape.attrib), [t.text for t in g.iter(f"{SVG}text")])
    return out


def test_iterations_share_one_layout_and_nodes_keep_their_places(pure_engine, monkeypatch):
    calls = []
    real = frames_module.svg_layout
    monkeypatch.setattr(frames_module, "svg_layout", lambda *a: calls.append(1) or real(*a))
    tl = sgd_loop(4)
    lasts = [max(s.index for s in tl.steps if s.details["graph"] == g) for g in range(4)]
    frames = [groups(tl.draw(step=k).svg()) for k in lasts]
    assert len(calls) == 1  # one layout for the four iterations
    for frame in frames[1:]:
        assert {i: g[0] for i, g in frame.items()} == {i: g[0] for i, g in frames[0].items()}
    # each iteration's frame shows its own numbers: the loss node's value row is that graph's
    for k, frame in zip(lasts, frames, strict=True):
        loss = next(n for n in tl[k].nodes if n.kind == "output")
        (slot,) = [i for i, g in frame.items() if g[1][0] == loss.name]
        assert frame[slot][1][1] == f"value: {number(loss.value)}"
    values = {next(n.value for n in tl[k].nodes if n.kind == "output") for k in lasts}
    assert len(values) == 4  # the loss changed every iteration, and every frame showed it


def test_a_graph_of_another_shape_gets_its_own_layout(pure_engine):
    tl = sgd_loop(3, big_at=1, big_ops=3)
    frames = Frames(tl, get_theme("default"), make_options())
    assert [frames.leader(g) for g in range(3)] == [0, 1, 0]
    page = player_page(tl)
    assert page.count("<svg") == 2


def test_a_graph_too_large_to_draw_is_one_summary_step(pure_engine, tmp_path):
    """Iteration 2 of 3 has a long chain: over max_nodes it is summarised, not an error."""
    tl = sgd_loop(3, big_at=1, big_ops=40)
    big = [s.index for s in tl.steps if s.details["graph"] == 1]
    nodes = len({n.id for k in big for n in tl[k].nodes})
    options = {"max_nodes": 60}
    with pytest.raises(autoviz.errors.GraphTooLarge):
        autoviz.draw(tl[big[-1]], **options)  # drawn alone, the graph is refused
    frame = tl.draw(step=big[3], **options).svg()
    text = " ".join(t.text for t in ET.fromstring(frame).iter(f"{SVG}text"))
    assert f"Steps {big[0]:,}–{big[-1]:,}: a graph of {nodes:,} nodes, too large to draw" in text
    assert "max_nodes=60" in text and f"tl.draw(step={big[0]}" in text

    paths = tl.save_frames(tmp_path / "frames", **options)
    assert len(paths) == len(tl) - len(big) + 1
    assert paths[big[0]].name == f"step-{big[0]:03d}.svg"
    assert "too large to draw" in paths[big[0]].read_text()
    assert paths[big[0] + 1].name == f"step-{big[-1] + 1:03d}.svg"  # then the next graph

    page = player_page(tl, **options)
    data = json.loads(re.search(r'id="av-data">(.*?)</script>', page, re.S).group(1))
    assert len(data["steps"]) == len(tl) - len(big) + 1
    summary = data["steps"][big[0]]
    assert "too large to draw" in data["strings"][summary["explain"]]
    assert summary["changes"] == [] and page.count("<svg") == 2  # the loop's layout, the summary

    animation = tl.save_animation(tmp_path / "a.svg", **options).read_text()
    assert "too large to draw" in animation

    stepper = autoviz.Stepper(tl, **options)
    stepper.step = big[5]
    assert "too large to draw" in stepper.frame_svg
    stepper.step = big[-1] + 4
    assert "too large to draw" not in stepper.frame_svg


def test_a_summary_box_escapes_what_it_quotes(pure_engine):
    from autoviz.render.summary import summary_svg

    svg = summary_svg(["<b>&</b>", "</text><script>x</script>"], get_theme("dark"))
    root = ET.fromstring(svg)
    assert [t.text for t in root.iter(f"{SVG}text")] == ["<b>&</b>", "</text><script>x</script>"]
    assert not list(root.iter(f"{SVG}script"))
