"""Long timelines: work linear in their length, one layout per structure, summaries for huge graphs.

Costs are counted, never timed: how many of the timeline's nodes, edges and steps a view reads,
and how many labels it writes, as the number of iterations grows.
"""

import itertools
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
from autoviz.tracing import jsonio
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
        lambda tl: player_page(tl, full_iterations=None),
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


def test_captions_are_written_when_first_read_alike_in_any_order():
    from autoviz.tracing.captions import Pending

    forward, backward = sgd_loop(4), sgd_loop(4)
    assert all(type(s._caption) is Pending for s in backward.steps)  # none yet
    in_order = [s.caption for s in forward.steps]
    in_reverse = [s.caption for s in reversed(backward.steps)][::-1]
    assert in_order == in_reverse
    assert all(type(s._caption) is str for s in backward.steps)
    # a caption reads the state its step found: zero_grad() left every grad None
    accumulated = [s.caption for s in forward.steps if s.kind == "accumulate"]
    assert accumulated and all(" is now " in text for text in accumulated)
    loaded = jsonio.loads(jsonio.dumps(forward))
    assert [s.caption for s in loaded.steps] == in_order


def test_a_caption_read_first_still_sees_the_grads_steps_before_it_left():
    def twice():
        w = autoviz.tensor(2.0, requires_grad=True)
        with autoviz.trace() as tl:
            for _ in range(2):
                (w * 3.0).backward()  # no zero_grad(): the second pass adds to the first
        return tl

    tl = twice()
    last = [s for s in tl.steps if s.kind == "accumulate"][-1]
    first_read = last.caption  # before any caption of the steps before it
    assert first_read == [s.caption for s in twice().steps if s.kind == "accumulate"][-1]
    assert first_read == "w.grad accumulates: 3.0 + 3.0 = 6.0."  # the grad before was 3


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
        player_page(sgd_loop(iterations), full_iterations=None)
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


def polynomial_fit(iterations: int, points: int = 50):
    """PyTorch's polynomial-fitting tutorial, short: a cubic fitted to sin(x) by hand-written
    gradient steps under no_grad."""
    import math

    x = autoviz.linspace(-math.pi, math.pi, points)
    y = autoviz.sin(x)
    autoviz.manual_seed(0)
    a, b, c, d = (autoviz.randn((), requires_grad=True) for _ in range(4))
    with autoviz.trace() as tl:
        for _ in range(iterations):
            y_pred = a + b * x + c * x**2 + d * x**3
            loss = (y_pred - y).pow(2).sum()
            loss.backward()
            with autoviz.no_grad():
                for p in (a, b, c, d):
                    p -= 1e-4 * p.grad
                    p.grad = None
    return tl, (a, b, c, d)


def test_iterations_give_each_graphs_loss_and_parameters(pure_engine):
    tl, (a, *_) = polynomial_fit(4)
    its = tl.iterations
    assert [it.number for it in its] == [0, 1, 2, 3]
    assert its[0].steps.start == 0 and its[-1].steps.stop == len(tl)
    for it, nxt in itertools.pairwise(its):
        assert it.steps.stop == nxt.steps.start
    seeds = [s for s in tl.steps if s.kind == "seed"]
    for it, seed in zip(its, seeds, strict=True):
        assert it.loss == pytest.approx(tl[seed.index].node(seed.nodes[0]).value)
    assert its[0].loss > its[-1].loss  # the fit improves
    assert its[-1].values["a"] == pytest.approx(a.item())  # after the last update
    assert its[0].values["a"] != its[1].values["a"]


def entries_of(page: str) -> dict:
    return json.loads(re.search(r'id="av-data">(.*?)</script>', page, re.S).group(1))


def test_later_iterations_are_condensed_into_one_entry_with_their_series(pure_engine):
    tl, _ = polynomial_fit(10)
    page = player_page(tl, full_iterations=3)  # the first three and the last
    data = entries_of(page)
    third, last = tl.iterations[2].steps, tl.iterations[-1].steps
    indices = [s["index"] for s in data["steps"]]
    assert indices == [*range(third.stop), third.stop, *last]
    assert indices[-1] == len(tl) - 1  # End is the real last step
    condensed = data["steps"][third.stop]
    assert data["strings"][condensed["banner"]] == "Iterations 4–9, condensed"
    assert "Iterations 4–9 (steps" in data["strings"][condensed["explain"]]
    assert "tl.draw(step=k)" in data["strings"][condensed["explain"]]  # a Python reader's
    assert condensed["changes"] == []
    others = data["steps"][: third.stop] + data["steps"][third.stop + 1 :]
    assert {s["layout"] for s in others}.isdisjoint({condensed["layout"]})
    assert 'class="node condensed"' in page  # the chart, a picture of its own
    its = data["iterations"]
    assert its["first"] == [it.steps.start for it in tl.iterations]
    assert its["loss"] == pytest.approx([it.loss for it in tl.iterations])
    assert sorted(its["values"]) == ["a", "b", "c", "d"]
    assert its["values"]["a"] == pytest.approx([it.values["a"] for it in tl.iterations])
    assert its["full"] == [0, 1, 2, 9]
    assert its["condensed"] == [{"entry": third.stop, "first": 3, "last": 8}]


def test_a_short_run_is_shown_whole_and_a_long_one_to_its_last_step(pure_engine):
    """By default the iterations that fit the page's step budget are shown in full: all of
    a short run; the first ones and the last of a long one, so End is the last step."""
    from autoviz.render.dot import STEP_BUDGET

    short, _ = polynomial_fit(5)
    data = entries_of(player_page(short))
    assert [s["index"] for s in data["steps"]] == list(range(len(short)))
    size = len(short.iterations[0].steps)
    long, _ = polynomial_fit(STEP_BUDGET // size + 5)
    data = entries_of(player_page(long))
    full = data["iterations"]["full"]
    assert full[-1] == len(long.iterations) - 1 and full == [*range(len(full) - 1), full[-1]]
    assert sum(len(long.iterations[i].steps) for i in full) <= STEP_BUDGET
    assert data["steps"][-1]["index"] == len(long) - 1


def test_full_iterations_chooses_what_is_shown_step_by_step(pure_engine):
    tl, _ = polynomial_fit(8)
    every = entries_of(player_page(tl, full_iterations=None))
    assert [s["index"] for s in every["steps"]] == list(range(len(tl)))
    assert every["iterations"]["condensed"] == []
    chosen = entries_of(player_page(tl, full_iterations=[0, 5]))
    runs = [(r["first"], r["last"]) for r in chosen["iterations"]["condensed"]]
    assert runs == [(1, 4), (6, 7)] and chosen["iterations"]["full"] == [0, 5]
    fifth = tl.iterations[5].steps
    indices = [s["index"] for s in chosen["steps"]]
    assert (
        list(fifth) == indices[indices.index(fifth.start) : indices.index(fifth.start) + len(fifth)]
    )
    with pytest.raises(ValueError, match="full_iterations must be"):
        player_page(tl, full_iterations="3")
    with pytest.raises(ValueError, match="full_iterations must be an integer >= 0"):
        player_page(tl, full_iterations=-1)


def test_condensed_iterations_in_frames_animation_and_stepper(pure_engine, tmp_path):
    tl, _ = polynomial_fit(6)
    paths = tl.save_frames(tmp_path / "f", full_iterations=3)
    start, last = tl.iterations[3].steps.start, tl.iterations[-1].steps
    assert len(paths) == start + 1 + len(last) and paths[start].name == f"step-{start:03d}.svg"
    assert paths[-1].name == f"step-{len(tl) - 1:03d}.svg"
    chart = paths[start].read_text()
    texts = [t.text for t in ET.fromstring(chart).iter(f"{SVG}text")]
    assert "Iterations 4–5, condensed" in texts and "loss" in texts and "a" in texts
    animation = tl.save_animation(tmp_path / "a.svg", full_iterations=3).read_text()
    assert "Iterations 4–5 (steps" in animation
    stepper = autoviz.Stepper(tl, full_iterations=3)
    assert stepper.frame_svg  # the widget's data comes from the same entries
    stepper.step = len(tl) - 1  # a condensed iteration's step can still be shown
    assert tl.draw(step=len(tl) - 1).svg().count("<svg") == 1


def test_a_chart_escapes_parameter_names(pure_engine):
    from autoviz.render.plot import condensed_svg
    from autoviz.tracing.iterations import Iteration

    its = [
        Iteration(i, range(i, i + 1), 1.0 / (i + 1), {"</text>&<b>": float(i)}) for i in range(3)
    ]
    root = ET.fromstring(condensed_svg(its, get_theme("default")))
    assert "</text>&<b>" in [t.text for t in root.iter(f"{SVG}text")]


POLY_SCRIPT = """
import math
import autoviz as torch
x = torch.linspace(-math.pi, math.pi, 20)
y = torch.sin(x)
a = torch.tensor(0.1, requires_grad=True)
b = torch.tensor(0.2, requires_grad=True)
for t in range(6):
    loss = (a + b * x - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        a -= 1e-3 * a.grad
        b -= 1e-3 * b.grad
        a.grad = None
        b.grad = None
"""


@pytest.mark.parametrize(("flag", "full"), [(["--full-iterations", "2"], [0, 1, 5]), ([], None)])
def test_the_cli_condenses_iterations_too(tmp_path, pure_engine, flag, full, capsys):
    """A short run is shown whole; a condensed run's notes speak of the CLI's flag, never of
    Python (issue 25 item 9), and End is the run's last step."""
    from autoviz.cli import main

    script = tmp_path / "fit.py"
    script.write_text(POLY_SCRIPT)
    out = tmp_path / "fit.html"
    assert main(["html", str(script), "-o", str(out), *flag]) == 0
    page = out.read_text()
    data = entries_of(page)
    assert data["steps"][-1]["index"] == data["total"] - 1
    if full is None:
        assert data["iterations"]["condensed"] == []
    else:
        assert data["iterations"]["full"] == full
        assert data["iterations"]["condensed"][0]["last"] == 4
        notes = " ".join(data["strings"])
        assert "--full-iterations all" in notes and data["iterations"]["advice"] == "cli"
        assert "full_iterations=" not in notes and "tl.draw" not in notes
    assert main(["html", str(script), "-o", str(out), "--full-iterations", "all"]) == 0
    assert entries_of(out.read_text())["iterations"]["condensed"] == []
    with pytest.raises(SystemExit):
        main(["html", str(script), "-o", str(out), "--full-iterations", "some"])
    assert "expected a number or 'all'" in capsys.readouterr().err
