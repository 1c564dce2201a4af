"""A frame's SVG cut into stacked layers, so that a step re-sends only the layers it changed.

Core ipywidgets can only replace an HTML widget's whole value, and a 500-node frame is 600 KB:
re-sending and re-parsing all of it at every click is what made stepping slow. Every layer is
the same-sized SVG (same viewBox and transform) holding a run of consecutive node and edge
groups; the layers are stacked in one grid cell, so together they draw the frame, in Graphviz's
paint order. A step changes a few groups, hence a few layers.
"""

import re

_GRAPH = re.compile(r'<g id="graph0" class="graph"[^>]*>\n?')
_ITEM_START = '<g id="'  # Graphviz's clusters, nodes and edges: flat groups, one after another


def split(svg: str, per_layer: int) -> list[str]:
    """The layers of `svg`, each holding up to `per_layer` groups; the first also holds the
    background, the stylesheet and everything before the first group."""
    start = _GRAPH.search(svg)
    end = svg.rfind("</g>")  # closes the graph group
    if start is None or end < start.end():
        return [svg]
    head, body, tail = svg[: start.end()], svg[start.end() : end], svg[end:]
    preamble, *items = body.split(_ITEM_START)  # str.split: a regex here cost 90 ms a step
    if not items or not body.count("<g") == body.count("</g>") == len(items):
        return [svg]  # nested or unnamed groups: keep the frame whole
    items = [_ITEM_START + item for item in items]
    open_tag = _bare(head)
    return [
        (head + preamble if first == 0 else open_tag)
        + "".join(items[first : first + per_layer])
        + tail
        for first in range(0, len(items), per_layer)
    ]


def _bare(head: str) -> str:
    """The <svg> and graph <g> opening tags without the stylesheet (the first layer has it)."""
    svg_tag = head[head.index("<svg") : head.index(">", head.index("<svg")) + 1]
    graph_tag = _GRAPH.search(head).group(0)
    return f"{svg_tag}\n{graph_tag}"


def scope_styles(svg: str, scope: str) -> str:
    """Prefix every rule of the SVG's stylesheet with the selector `scope`.

    An inline SVG's <style> applies to the whole notebook page: unscoped, a dark frame's
    colours would restyle a default one beside it, and `.hidden` would hide any element so
    named.
    """
    start, end = svg.find("<style>"), svg.find("</style>")
    if start < 0 or end < start:
        return svg
    css = svg[start + len("<style>") : end]
    if "@" in css:
        return svg  # at-rules would need a real CSS parser
    rules = []
    for rule in css.split("}"):
        if "{" not in rule:
            continue
        selectors, body = rule.split("{", 1)
        scoped = ", ".join(f"{scope} {s.strip()}" for s in selectors.split(","))
        rules.append(f"{scoped} {{{body}}}")
    return svg[:start] + "<style>\n" + "\n".join(rules) + "\n" + svg[end:]
