"""Label text centred on its node in laid-out SVG, whatever widths the engine measured."""

import re

_NODE = re.compile(r'(<g id="[^"]+" class="node[^"]*">)(.*?)(</g>)', re.S)
_TEXT = re.compile(r"<text([^>]*)>")
_PAIR = re.compile(r"(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)")


def center_node_texts(svg: str) -> str:
    """Every node's text anchored at the middle of its shape.

    graphviz-pure measures text narrower than browsers draw it and starts each row at the left
    margin, so long rows ran over the right border; centred, the difference splits into both
    margins. Frames also need it: a step's text may be longer or shorter than the laid-out one.
    """
    return _NODE.sub(lambda m: m.group(1) + _center(m.group(2)) + m.group(3), svg)


def _center(body: str) -> str:
    x = f' x="{center_x(body):.2f}"'

    def anchor(match) -> str:
        attrs = re.sub(r'text-anchor="\w+"', 'text-anchor="middle"', match.group(1))
        return "<text" + re.sub(r' x="[-\d.]+"', x, attrs) + ">"

    return _TEXT.sub(anchor, body)


def center_x(body: str) -> float:
    """The horizontal centre of a node's shape (ellipse centre or the points' extent)."""
    ellipse = re.search(r'<ellipse[^>]* cx="([-\d.]+)"', body)
    if ellipse:
        return float(ellipse.group(1))
    shape = re.search(r'<(?:polygon|path)[^>]*(?:points|d)="([^"]*)"', body)
    xs = [float(x) for x, _ in _PAIR.findall(shape.group(1))] if shape else [0.0]
    return (min(xs) + max(xs)) / 2
