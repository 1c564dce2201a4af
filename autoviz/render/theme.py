"""Colours, shapes and fonts for each kind of node: the lesson's visual grammar."""

from dataclasses import dataclass, field

FONT = "Helvetica,Arial,sans-serif"


@dataclass(frozen=True)
class Theme:
    """How each kind of node and edge looks; shape always doubles the colour cue."""

    name: str
    background: str
    text: str
    edge: str
    font: str = FONT
    font_size: float = 14.0
    small_size: float = 11.0
    pen: float = 1.2
    kinds: dict = field(default_factory=dict)


def _kind(shape, fill, border, style="filled", pen=None):
    return {"shape": shape, "fill": fill, "border": border, "style": style, "pen": pen}


DEFAULT = Theme(
    name="default",
    background="white",
    text="#1b1b1b",
    edge="#444444",
    kinds={
        "leaf": _kind("box", "#cfe2ff", "#1c4f9c", "filled,rounded"),
        "op": _kind("ellipse", "#fff3bf", "#a07800"),
        "intermediate": _kind("box", "#d3f9d8", "#2b7a3b", "filled,rounded"),
        "output": _kind("box", "#b2f2bb", "#1e5e2c", "filled,rounded", pen=3.0),
        "constant": _kind("box", "#e9ecef", "#6c757d", "filled,rounded"),
    },
)

THEMES = {"default": DEFAULT}


def get_theme(name: str) -> Theme:
    """The theme called `name`; an unknown name is an error listing the valid ones."""
    try:
        return THEMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown theme {name!r} (must be one of {sorted(THEMES)})") from None
