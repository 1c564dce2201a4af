"""From plain-data graphs to DOT, SVG and files; never touches engine objects."""

from .diagram import Diagram
from .dot import Options, to_dot
from .theme import THEMES, Theme, get_theme

__all__ = ["THEMES", "Diagram", "Options", "Theme", "draw_graph", "get_theme", "to_dot"]


def draw_graph(graph, theme: str = "default", timeout: float | None = None, **options) -> Diagram:
    """A Diagram of a plain-data Graph, in `theme`, with labelling `options`."""
    return Diagram(to_dot(graph, get_theme(theme), Options(**options)), timeout=timeout)
