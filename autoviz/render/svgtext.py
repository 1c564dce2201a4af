"""Laid-out SVG as shown: label text centred on its node, whatever widths the engine measured."""

import re

import numpy as np

from .theme import FONT, FONT_FAMILY

_NODE = re.compile(r'<g id="[^"]+" class="node[^"]*">')
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


def tidy(svg: str) -> str:
    """The engine's SVG with tooltips as titles, every node's text centred and the theme font's
    fallbacks named."""
    if "<a xlink:title=" in svg:
        svg = _TOOLTIP.sub(r"<title>\1</title>\n\2", svg)
    return center_node_texts(svg).replace(f'font-family="{FONT}"', f'font-family="{FONT_FAMILY}"')


def center_node_texts(svg: str) -> str:
    """Every node's text anchored at the middle of its shape.

    graphviz-pure measures text narrower than browsers draw it and starts each row at the left
    margin, so long rows ran over the right border; centred, the difference splits into both
    margins. Frames also need it: a step's text may be longer or shorter than the laid-out one.
    """
    parts, done = [], 0
    for match in _NODE.finditer(svg):
        end = svg.index("</g>", match.end())
        parts += (svg[done : match.end()], _center(svg[match.end() : end]))
        done = end
    parts.append(svg[done:])
    return "".join(parts)


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
