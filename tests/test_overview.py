"""Fit's folded overviews (export/overview.py): render's folding from least to most folded,
every node of the graph drawn in each or mapped to the box or op that stands for it, a rolled
run of blocks with its first block open (a residual's skip connection in view), none for a
graph that is small anyway."""

import html
import re

import pytest

from autoviz.export.playerdata import build
from autoviz.tracing.index import index_of
from conftest import lesson_timeline
from programs import mlp_training, residual_net

_NODE = re.compile(r'<g id="([^"]+)" class="node')
_EDGE_TITLE = re.compile(r'<g id="[^"]+" class="edge[^"]*">\s*<title>([^<]+)</title>')


def overviews_of(tl):
    bundle = build(tl, progress=False)
    layout = bundle.data["layouts"][0]
    count = len(layout["directions"])
    return bundle, layout["overviews"], bundle.svgs[0][count:]


@pytest.mark.parametrize("make", [mlp_training, residual_net], ids=["mlp", "residual"])
def test_every_node_is_drawn_or_stands_in_a_box_and_each_level_folds_more(make, pure_engine):
    tl = make()
    _, metas, svgs = overviews_of(tl)
    assert metas and len(metas) == len(svgs)
    graph = {n.id for n in tl[index_of(tl).graph(0).last].nodes}  # what the overview draws
    drawn_counts = {}
    for meta, svg in zip(metas, svgs, strict=True):
        drawn = set(_NODE.findall(svg))
        for node_id in graph:
            assert meta["map"].get(node_id, node_id) in drawn, (meta["level"], node_id)
        sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
        assert meta["fontSize"] == min(sizes)
        assert "value:" not in svg and 'id="legend"' not in svg  # names only, no key
        drawn_counts.setdefault(meta["level"], len(drawn))
    levels = [drawn_counts[level] for level in sorted(drawn_counts)]
    assert levels == sorted(levels, reverse=True) and len(set(levels)) == len(levels)


def test_a_rolled_run_of_blocks_keeps_its_first_block_and_its_skip_in_view(pure_engine):
    tl = residual_net()
    _, metas, svgs = overviews_of(tl)
    folds = [m["folds"] for m in metas]
    opened = next(svg for m, svg in zip(metas, svgs, strict=True) if "net.2 … net.3" in m["folds"])
    assert "net.2 … net.3 ×2" in opened and 'class="cluster' in opened and "net.1 (Block)" in opened
    # The skip: an edge from net.0's box straight into the add op of net.1 (x + act(lin(x))).
    add = next(
        n.id for n in tl.nodes if n.op == "AddBackward0" and "net.1" in [p for p, _ in n.module]
    )
    ends = [html.unescape(t).split("->") for t in _EDGE_TITLE.findall(opened)]
    assert [a for a, b in ends if b == add and a.startswith("m")]  # m…: a module's box
    assert any("net.1 … net.3" in f for f in folds)  # and, most folded, the whole run as one box


def test_a_small_graph_has_no_overview(pure_engine):
    _, metas, svgs = overviews_of(lesson_timeline())
    assert metas == [] and svgs == []
