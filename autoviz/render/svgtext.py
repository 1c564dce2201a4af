"""Laid-out SVG as shown: label text centred on its node, whatever widths the engine measured,
and rounded boxes drawn with dot's corners by autoviz (dot writes them as 26-point paths, a
seventh of a layout's time)."""

import html
import re

import numpy as np

from .theme import FONT, FONT_FAMILY

_NODE = re.compile(r'<g id="([^"]+)" class="node[^"]*">')
_CX = re.compile(r' cx="([-\d.]+)"')
_POINTS = re.compile(r' (?:points|d)="([^"]*)"')
_COMMANDS = re.compile(r"[A-Za-z,]")  # path commands and the commas between x and y
# Inside a node only its <text> elements carry these; escaped label text cannot contain a quote.
_X = re.compile(r' x="[-\d.]+"')
_MIDDLE = 'text-anchor="middle"'


# A node with a tooltip: both engines wrap its shapes in a link carrying the text.
_TOOLTIP = re.compile(
    r'<title>[^<]*</title>\n<g id="a_[^"]*"><a xlink:title="([^"]*)">\n(.*?)</a>\n</g>\n', re.S
)


def tidy(svg: str, rounded=frozenset()) -> str:
    """The engine's SVG with tooltips as titles, every node's text centred, the boxes of the
    nodes in `rounded` (ids) given round corners and the theme font's fallbacks named."""
    if "<a xlink:title=" in svg:
        svg = _TOOLTIP.sub(r"<title>\1</title>\n\2", svg)
    svg = center_node_texts(svg, rounded)
    return svg.replace(f'font-family="{FONT}"', f'font-family="{FONT_FAMILY}"')


# A node's style in DOT as autoviz writes it: after its id, before its label (whose text has
# its quotes escaped, so ` style="` cannot start inside it).
_NODE_STYLE = re.compile(
    r'^(\t+(?!graph |node |edge |subgraph )[^\s\[]+ \[id="([^"]+)"[^\n]*? style=")([^"]*)"', re.M
)


def square_boxes(source: str) -> tuple[str, frozenset]:
    """DOT `source` with its nodes' `rounded` style taken off, and the ids of those nodes: tidy
    draws their corners as dot would (a radius of 12 points, at most a third of a side)."""
    rounded = []

    def square(match) -> str:
        styles = match.group(3).split(",")
        if "rounded" not in styles:
            return match.group(0)
        rounded.append(match.group(2))
        return match.group(1) + ",".join(s for s in styles if s != "rounded") + '"'

    return _NODE_STYLE.sub(square, source), frozenset(rounded)


def center_node_texts(svg: str, rounded=frozenset()) -> str:
    """Every node's text anchored at the middle of its shape; the outline of the nodes in
    `rounded` with round corners.

    graphviz-pure measures text narrower than browsers draw it and starts each row at the left
    margin, so long rows ran over the right border; centred, the difference splits into both
    margins. Frames also need it: a step's text may be longer or shorter than the laid-out one.
    """
    parts, done = [], 0
    for match in _NODE.finditer(svg):
        end = svg.index("</g>", match.end())
        body = _center(svg[match.end() : end])
        node_id = match.group(1)
        if node_id in rounded or ("&" in node_id and html.unescape(node_id) in rounded):
            body = _round(body)  # dot writes `-` in an id as &#45;
        parts += (svg[done : match.end()], body)
        done = end
    parts.append(svg[done:])
    return "".join(parts)


_OUTLINE = re.compile(r'<polygon( [^>]*?) points="([^"]*)"')
RADIUS = 12.0  # points: dot's corner offset (RBCONST), its curve's handles halfway to the corner


def _round(body: str) -> str:
    """A node's box (its first polygon) as the path of dot's rounded style, in 4 lines and 4
    curves: at most a third of the shorter side is cut off each corner."""
    match = _OUTLINE.search(body)
    if match is None:
        return body
    pairs = [point.split(",") for point in match.group(2).split()]
    xs, ys = [float(p[0]) for p in pairs], [float(p[1]) for p in pairs]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    r = min(RADIUS, (x1 - x0) / 3, (y1 - y0) / 3)
    h = r / 2
    x = [f"{v:.2f}" for v in (x0, x0 + h, x0 + r, x1 - r, x1 - h, x1)]
    y = [f"{v:.2f}" for v in (y0, y0 + h, y0 + r, y1 - r, y1 - h, y1)]
    # From the top side's right end, anticlockwise: a side, then a corner (handle, handle, end).
    path = (
        f"M{x[3]},{y[0]}H{x[2]}C{x[1]},{y[0]} {x[0]},{y[1]} {x[0]},{y[2]}"
        f"V{y[3]}C{x[0]},{y[4]} {x[1]},{y[5]} {x[2]},{y[5]}"
        f"H{x[3]}C{x[4]},{y[5]} {x[5]},{y[4]} {x[5]},{y[3]}"
        f"V{y[2]}C{x[5]},{y[1]} {x[4]},{y[0]} {x[3]},{y[0]}Z"
    )
    return f'{body[: match.start()]}<path{match.group(1)} d="{path}"{body[match.end() :]}'


def _center(body: str) -> str:
    body = _X.sub(f' x="{center_x(body):.2f}"', body)
    # The engines write only these three anchors: replacing is quicker than a regex.
    return body.replace('text-anchor="start"', _MIDDLE).replace('text-anchor="end"', _MIDDLE)


def center_x(body: str) -> float:
    """The horizontal centre of a node's shape (ellipse centre or the points' extent)."""
    ellipse = body.find("<ellipse")
    if ellipse >= 0:
        return float(_CX.search(body, ellipse).group(1))
    starts = [i for i in (body.find("<polygon"), body.find("<path")) if i >= 0]
    points = _POINTS.search(body, min(starts)) if starts else None  # the first shape drawn
    if points is None:
        return 0.0
    xs = _xs(points.group(1))
    return (min(xs) + max(xs)) / 2 if xs else 0.0


def _xs(points: str) -> list:
    """The x of every point of a polygon's `points` or a path's `d`. Both engines write
    "x,y x,y …" and paths as "Mx,yCx,y x,y …": split as text (a regex over a rounded box's
    26 points took most of a drawing's post-processing); anything else is parsed by numpy."""
    pairs = points.replace("M", "").replace("C", " ").split()
    if points.count(",") == len(pairs):
        try:
            return [float(pair[: pair.index(",")]) for pair in pairs]
        except ValueError:  # other path commands, or not numbers
            pass
    return np.fromstring(_COMMANDS.sub(" ", points), sep=" ")[0::2].tolist()
