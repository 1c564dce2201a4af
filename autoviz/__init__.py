"""autoviz: see reverse-mode automatic differentiation, with PyTorch's names and semantics.

Layers, imported one way only:

    engine  ->  tracing  ->  render  ->  widgets / export  ->  cli

`engine` is a numpy autograd engine that emits events and knows nothing of drawing;
`tracing` turns tensors and events into plain-data graphs and timelines (`autoviz.trace()`);
`bridge`, beside it, makes the same plain data from real torch (`autoviz.trace_torch()`, draw of
a torch tensor) and is the only module that imports torch; `render` turns those into DOT, SVG
and files and never touches engine or torch objects. `nn`, `optim` and `distributions` are
PyTorch's namesakes built on the engine alone.
`import autoviz` loads only the engine; the rest loads on first use, so
`import autoviz as torch` stays quick.
"""

from __future__ import annotations  # `float`, `bool` below are PyTorch dtypes

from . import engine as _engine
from .engine import *  # PyTorch's top-level names: tensor, zeros, exp, ...)
from .engine import autograd

__version__ = "0.1.0"

__all__ = [
    "Comparison",
    "Diagram",
    "Stepper",
    "Timeline",
    "autograd",
    "compare",
    "distributions",
    "draw",
    "nn",
    "optim",
    "trace",
    "trace_torch",
] + [n for n in dir(_engine) if not n.startswith("_")]


def draw(obj, *, theme: str = "default", timeout: float | None = None, **options):
    """Draw the computation graph that ends at tensor `obj`, naming nodes after your variables.

    `obj` is an autoviz tensor, a torch tensor (drawn through the bridge), a Graph or a
    Timeline. Options: rankdir ("LR", "TB", "BT", "RL"), op_label ("both", "symbol", "name";
    default both, or name alone when inner tensors are hidden), precision (significant
    digits), values ("text", "heatmap" for 1-D and 2-D tensors, "none"), show_grads,
    show_saved (tensors saved for backward), legend; for nn.Module graphs expand (["net.1"]),
    depth (module levels opened), collapse_above (default 300 nodes), max_nodes (default
    5,000); hide_inner_tensors (True, False, or None: hide them when the drawing would still
    exceed collapse_above nodes). Returns a `Diagram`.
    """
    from .bridge import graph_of_torch, is_torch_object
    from .render import draw_graph
    from .tracing import Graph, Timeline, caller_namespace, graph_of

    if isinstance(obj, Timeline):
        return obj.draw(theme=theme, timeout=timeout, **options)
    if isinstance(obj, Graph):
        graph = obj
    elif is_torch_object(obj):  # told by its type's module, without importing torch
        graph = graph_of_torch(obj, caller_namespace(2))
    else:
        graph = graph_of(obj, caller_namespace(2))
    return draw_graph(graph, theme, timeout, **options)


def compare(tl_a, tl_b, *, labels=("a", "b"), step: int = 0, theme: str = "default", **options):
    """Two timelines side by side, stepping together (phase by phase when their lengths
    differ): a widget in Jupyter, and `.save_html(path)` writes it as one page. `labels` name
    the two (`("tanh", "relu")`), `step` is where both start (-1: at their ends); the drawing
    options are those of `tl.draw`."""
    from .widgets import Comparison

    return Comparison(tl_a, tl_b, labels=labels, step=step, theme=theme, **options)


def __getattr__(name: str):
    if name == "Diagram":
        from .render import Diagram

        return Diagram
    if name == "trace_torch":
        from .bridge import trace_torch

        return trace_torch
    if name in ("trace", "Timeline"):
        from . import tracing

        return getattr(tracing, name)
    if name in ("Stepper", "Comparison"):
        from . import widgets

        return getattr(widgets, name)
    if name in ("nn", "optim", "distributions"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'autoviz' has no attribute {name!r}")
