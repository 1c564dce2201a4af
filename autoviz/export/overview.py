"""The folded overviews the player's Fit shows when a whole graph cannot be drawn legibly on
the screen at hand: render's folding (render/groups.py), with modules and repeated blocks
folded, inner tensors hidden and values left out, from least to most folded."""

import re
from dataclasses import replace

from ..errors import GraphTooLarge
from ..render.dot import drawing_plan, to_dot
from ..render.layout import svg_layout

MIN_DRAWN = 8  # fewer nodes fit legibly on any stage but a phone's: no overview
MAX_DRAWN = 150  # an overview with more nodes is legible on no screen: not drawn
GOAL = 40  # nodes render's own folding of a big graph aims at, for the most folded overview
MOST = 4  # overviews per graph (each a layout per direction)
# A layout legible whole on a stage this small (CSS px, text at 12 px) needs no overview.
SMALL_STAGE = (640, 400)
_FONT = re.compile(r'font-size="([\d.]+)"')
_VIEW_BOX = re.compile(r'<svg[^>]*\sviewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"')


def overviews(frames, deltas, directions, look, inline) -> tuple[list, list]:
    """Per layout, the overviews' data ({direction, level, fontSize, map, folds}) and their SVG
    texts in the same order; none for a condensed chart, a summary or a graph that folds no
    smaller than it is drawn."""
    data, svgs = [], []
    charts = {deltas.layout_of_step[e] for e, graphs in enumerate(deltas.condensed) if graphs}
    for i, layout in enumerate(deltas.layouts):
        small = i in charts or _legible_on_small_stage(layout.svg, look.small_size)
        found = [] if small else _for_graph(frames, frames.leader(layout.graph_no), directions)
        data.append([meta for meta, _ in found])
        svgs.append([inline(svg, look.name) for _, svg in found])
    return data, svgs


def _legible_on_small_stage(svg: str, font_size: float) -> bool:
    match = _VIEW_BOX.search(svg)
    if match is None:
        return True
    scale = 12 / font_size
    w, h = (float(v) * scale for v in match.groups())
    return min(w, h) <= min(SMALL_STAGE) and max(w, h) <= max(SMALL_STAGE)


def _for_graph(frames, leader: int, directions) -> list:
    _, _, plan = frames.template(leader)
    part = frames.index.graph(leader)
    if plan is None or not part.steps or plan.drawn < MIN_DRAWN:
        return []
    graph = frames.tl[part.last]  # every node made: the overview shows the whole structure
    found, drawn, level = [], plan.drawn, 0
    for options in _foldings(graph, frames.options):
        if len(found) >= MOST * len(directions):
            break
        folded = _plan(graph, options)
        if folded is None or folded.drawn > MAX_DRAWN or (found and folded.drawn >= drawn):
            continue  # legible nowhere, or folds nothing more than the one before
        drawn = folded.drawn
        for direction in directions:
            chosen = replace(options, rankdir=direction)
            svg = svg_layout(to_dot(graph, frames.theme, chosen, layout=folded), frames.timeout)
            meta = {
                "direction": direction,
                "level": level,
                "fontSize": min(float(size) for size in _FONT.findall(svg)),
                "map": _drawn_as(graph, folded),
                "folds": _folds(folded),
            }
            found.append((meta, svg))
        level += 1
    return found


def _plan(graph, options):
    try:
        return drawing_plan(graph, options)
    except GraphTooLarge:
        return None


def _foldings(graph, options):
    """Drawing options from least to most folded: names only and inner tensors hidden with
    every module open, then module levels closed from the innermost; where a level rolls
    identical blocks that feed each other into one box, first with the first block of each
    run open (its inside, a residual block's skip connection, stays in view); last, render's
    own folding of a graph too big to draw whole, to about GOAL nodes (repeated blocks rolled,
    modules opened as far as that allows, repeated structure outside modules in one box
    between its first and last block)."""
    base = replace(
        options,
        values="none",
        show_grads=False,
        legend=False,
        hide_inner_tensors=True,
        show_saved=False,
        op_label="symbol",
        expand=(),
        collapse_above=options.max_nodes,  # no folding of render's own but the levels below
    )
    yield replace(base, depth=None)
    deepest = max((len(n.module) for n in graph.nodes), default=0)
    for depth in range(deepest - 1, 0, -1):
        closed = replace(base, depth=depth)
        plan = _plan(graph, closed)
        firsts = tuple(box.paths[0] for box in plan.boxes if len(box.paths) > 1) if plan else ()
        if firsts:
            yield replace(closed, expand=firsts)
        yield closed
    yield replace(base, depth=None, collapse_above=GOAL)


def _drawn_as(graph, plan) -> dict:
    """Node id -> the id it is drawn as in the overview, for the nodes not drawn themselves:
    the module box that swallows it, or the op that made an inner tensor."""
    out = {}
    for node in graph.nodes:
        if node.id in plan.owner:
            out[node.id] = plan.owner[node.id]
        elif node.id in plan.hidden:
            made_by = plan.hidden[node.id]
            out[node.id] = plan.owner.get(made_by, made_by)
    return out


def _folds(plan) -> str:
    """What the overview folds, in words."""
    parts = []
    modules = [b for b in plan.boxes if b.fold is None]
    if modules:
        names = [
            b.paths[0] if len(b.paths) == 1 else f"{b.paths[0]} … {b.paths[-1]}" for b in modules
        ]
        shown = ", ".join(names[:4]) + (", …" if len(names) > 4 else "")
        parts.append(f"{len(modules)} module{'s' * (len(modules) > 1)} folded ({shown})")
    parts += [b.fold.title() for b in plan.boxes if b.fold is not None]
    if plan.hidden:
        parts.append(f"{len(plan.hidden)} inner tensor{'s' * (len(plan.hidden) > 1)} hidden")
    parts.append("values left out")
    return "; ".join(parts)
