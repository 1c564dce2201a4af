"""Colours, shapes and fonts for each kind of node: the lesson's visual grammar, four ways."""

from dataclasses import dataclass, field

# One name for the layout engine (Graphviz 2.50+ has no width table for a list of fallbacks);
# the SVG names look-alikes too, for viewers without Arial.
FONT = "Arial"
FONT_FAMILY = "Arial,Helvetica,Liberation Sans,Arimo,sans-serif"


@dataclass(frozen=True)
class Theme:
    """How each kind of node and edge looks; shape always doubles the colour cue."""

    name: str
    background: str
    text: str
    edge: str
    grad: str  # gradient-flow edges in backward
    highlight: str  # the node the current step acts on
    kinds: dict = field(default_factory=dict)
    cluster: str = "#868e96"  # border and label of a module's cluster
    error: tuple = ("#ffc9c9", "#c92a2a")  # fill and border of the op that raised
    font_size: float = 14.0
    small_size: float = 11.0
    pen: float = 1.2
    output_pen: float = 3.0


def _kinds(leaf, op, inter, output, const, module, saved, style="filled,rounded") -> dict:
    """Fill and border per kind: (fill, border) pairs; collapsed modules and saved tensors too."""

    def kind(shape, colours, node_style=style):
        return {"shape": shape, "fill": colours[0], "border": colours[1], "style": node_style}

    return {
        "leaf": kind("box", leaf),
        "op": kind("ellipse", op, "filled"),
        "intermediate": kind("box", inter),
        "output": kind("box", output),
        "constant": kind("box", const),
        "module": kind("box3d", module, "filled"),
        "saved": kind("box", saved),
    }


DEFAULT = Theme(
    name="default",
    background="white",
    text="#1b1b1b",
    edge="#444444",
    grad="#d9480f",
    highlight="#c2255c",
    kinds=_kinds(
        leaf=("#cfe2ff", "#1c4f9c"),
        op=("#fff3bf", "#a07800"),
        inter=("#d3f9d8", "#2b7a3b"),
        output=("#b2f2bb", "#1e5e2c"),
        const=("#e9ecef", "#6c757d"),
        module=("#e5dbff", "#5f3dc4"),
        saved=("#ffd8a8", "#c2410c"),
    ),
)

# Okabe & Ito's palette: sky blue, yellow and bluish green stay distinct for every common
# colour-vision deficiency; vermillion marks gradients.
COLORBLIND = Theme(
    name="colorblind",
    background="white",
    text="#000000",
    edge="#333333",
    grad="#D55E00",
    highlight="#CC79A7",
    kinds=_kinds(
        leaf=("#b3dcf4", "#0072B2"),
        op=("#f7f1a1", "#8a7f00"),
        inter=("#99d8c7", "#006e50"),
        output=("#66c5ab", "#004d38"),
        const=("#dddddd", "#555555"),
        module=("#f2d4e6", "#8f3f70"),
        saved=("#f5d9a0", "#9a6700"),
    ),
    cluster="#555555",
    error=("#f5c6a5", "#a33600"),  # vermillion, apart from the yellow ops for every deficiency
)

PROJECTOR = Theme(
    name="projector",
    background="white",
    text="#000000",
    edge="#000000",
    grad="#e03100",
    highlight="#b5006b",
    kinds=_kinds(
        leaf=("#9ec5fe", "#002f7a"),
        op=("#ffe066", "#6b5000"),
        inter=("#8ce99a", "#0b4d1a"),
        output=("#51cf66", "#053012"),
        const=("#ced4da", "#343a40"),
        module=("#d0bfff", "#3b1f8f"),
        saved=("#ffc078", "#a33600"),
    ),
    cluster="#343a40",
    error=("#ffa8a8", "#a50e0e"),
    font_size=22.0,
    small_size=18.0,
    pen=2.6,
    output_pen=5.0,
)

DARK = Theme(
    name="dark",
    background="#1e1e1e",
    text="#f1f3f5",
    edge="#adb5bd",
    grad="#ff922b",
    highlight="#f783ac",
    kinds=_kinds(
        leaf=("#1c3a66", "#74c0fc"),
        op=("#5c4a00", "#ffd43b"),
        inter=("#1b4d2b", "#69db7c"),
        output=("#24693a", "#b2f2bb"),
        const=("#343a40", "#adb5bd"),
        module=("#3b2a66", "#b197fc"),
        saved=("#5c3400", "#ffa94d"),
    ),
    cluster="#adb5bd",
    error=("#6b1d1d", "#ff8787"),
)

THEMES = {t.name: t for t in (DEFAULT, COLORBLIND, PROJECTOR, DARK)}


def get_theme(name: str) -> Theme:
    """The theme called `name`; an unknown name is an error listing the valid ones."""
    try:
        return THEMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown theme {name!r} (must be one of {list(THEMES)})") from None
