"""autoviz: see reverse-mode automatic differentiation, with PyTorch's names and semantics.

Layers, imported one way only:

    engine  ->  tracing  ->  render  ->  widgets / export  ->  cli

`engine` is a numpy autograd engine that emits events and knows nothing of drawing;
`tracing` turns tensors and events into plain-data graphs and timelines (`autoviz.trace()`);
`bridge`, beside it, makes the same plain data from real torch (`autoviz.trace_torch()`, draw of
a torch tensor) and is the only module that imports torch; `render` turns those into DOT, SVG
and files and never touches engine or torch objects. `nn`, `optim` and `distributions` are
PyTorch's namesakes built on the engine alone.
`import autoviz` loads only the engine (and `errors`, the exceptions a user can meet, listed on
the docs' Errors page, docs/errors.md); the rest loads on first use, so `import autoviz as torch`
stays quick. `files` (atomic writes) is imported by every layer that writes the user's files.
"""

from __future__ import annotations  # `float`, `bool` below are PyTorch dtypes

from . import autograd  # torch.autograd
from . import engine as _engine
from .engine import *  # PyTorch's top-level names: tensor, zeros, exp, ...)
from .errors import (
    AutovizError,
    GraphTooLarge,
    LayoutEngineNotFound,
    LayoutError,
    LayoutTimeout,
    NotInAutoviz,
    TimelineFormatError,
    TorchNotInstalled,
)

__version__ = "0.1.0"

__all__ = [
    *_engine.__all__,
    "AutovizError",
    "Comparison",
    "Diagram",
    "GraphTooLarge",
    "LayoutEngineNotFound",
    "LayoutError",
    "LayoutTimeout",
    "NotInAutoviz",
    "TimelineFormatError",
    "TorchNotInstalled",
    "Stepper",
    "Timeline",
    "as_torch",
    "autograd",
    "compare",
    "distributions",
    "draw",
    "load",
    "nn",
    "optim",
    "save",
    "set_printoptions",
    "trace",
    "trace_torch",
    "utils",
]

# torch's process-wide switches (threads, deterministic algorithms): autoviz.runtime.
_RUNTIME = (
    "set_num_threads",
    "get_num_threads",
    "set_num_interop_threads",
    "get_num_interop_threads",
    "use_deterministic_algorithms",
    "are_deterministic_algorithms_enabled",
    "is_deterministic_algorithms_warn_only_enabled",
    "set_deterministic_debug_mode",
    "get_deterministic_debug_mode",
    "set_float32_matmul_precision",
    "get_float32_matmul_precision",
    "set_warn_always",
    "is_warn_always_enabled",
)

# Submodules loaded on first use (`torch.nn`, `torch.utils.data`, ...), by the name PyTorch
# gives them, and functions that live in one: {name: (module, attribute or None)}.
_LAZY = {
    "nn": ("nn", None),
    "optim": ("optim", None),
    "utils": ("utils", None),
    "cuda": ("cuda", None),
    "backends": ("backends", None),
    "accelerator": ("accelerator", None),
    "cpu": ("cpu", None),
    "amp": ("amp", None),
    "autocast": ("amp", "autocast"),
    "is_autocast_enabled": ("amp", "is_autocast_enabled"),
    "version": ("version", None),
    "return_types": ("return_types", None),
    "distributions": ("distributions", None),
    "linalg": ("linalg", None),
    "special": ("special", None),
    "serialization": ("serialization", None),
    "save": ("serialization", "save"),
    "load": ("serialization", "load"),
    "as_torch": ("compat", "as_torch"),
    "testing": ("testing", None),
    **{name: ("runtime", name) for name in _RUNTIME},
    "set_printoptions": ("engine.fidelity.printing", "set_printoptions"),
    "get_printoptions": ("engine.fidelity.printing", "get_printoptions"),
}


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
    from .render import draw_graph, make_options
    from .tracing import Graph, Timeline, caller_namespace, graph_of

    if isinstance(obj, Timeline):
        return obj.draw(theme=theme, timeout=timeout, **options)
    # Options are checked before the walk, which stops at max_nodes (a huge graph is refused
    # without being walked whole).
    limit = make_options(**options).max_nodes
    if isinstance(obj, Graph):
        graph = obj
    elif is_torch_object(obj):  # told by its type's module, without importing torch
        graph = graph_of_torch(obj, caller_namespace(2), limit)
    else:
        graph = graph_of(obj, caller_namespace(2), max_nodes=limit)
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
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        try:
            found = importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as missing:
            if missing.name != f"{__name__}.{module}":
                raise
            found = None  # a part of PyTorch not written yet: said so below
        if found is not None:
            return getattr(found, attribute) if attribute else found
    from .torchnames import module_attribute

    raise module_attribute("torch", name)
