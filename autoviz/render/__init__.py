"""From plain-data graphs to DOT, SVG and files; never touches engine objects."""

from .diagram import Diagram
from .dot import Options, make_options, to_dot
from .theme import THEMES, Theme, get_theme

__all__ = [
    "THEMES",
    "Diagram",
    "Options",
    "Theme",
    "draw_frame",
    "draw_graph",
    "frames_for",
    "get_theme",
    "to_dot",
]


def draw_graph(graph, theme: str = "default", timeout: float | None = None, **options) -> Diagram:
    """A Diagram of a plain-data Graph, in `theme`, with labelling `options`."""
    return Diagram(to_dot(graph, get_theme(theme), make_options(**options)), timeout, graph=graph)


def frames_for(tl, theme: str = "default", timeout=None, **options):
    """The Frames of timeline `tl` in `theme` with `options`, made once and kept with it."""
    from .frames import Frames
    from .layout import check_timeout

    chosen = make_options(**options)
    key = (theme, chosen, check_timeout(timeout))
    cache = tl.__dict__.setdefault("_frames", {})
    if key not in cache:
        cache[key] = Frames(tl, get_theme(theme), chosen, timeout)
    return cache[key]


def draw_frame(tl, step: int, theme: str = "default", timeout=None, ghost=False, **options):
    """The frame of timeline `tl` after `step`: its graph's one layout, restyled."""
    frames = frames_for(tl, theme, timeout, **options)
    k = range(len(tl))[step]
    source, _, _ = frames.template(frames.graph_of_step(k))
    return Diagram(source, timeout, svg=frames.svg(k, ghost=ghost), graph=lambda: tl[k])
