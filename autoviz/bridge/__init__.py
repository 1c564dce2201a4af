"""The PyTorch bridge: torch's own graphs and backward runs as autoviz's plain-data Graph and
Timeline, so every view draws them unchanged. torch is imported only when a bridge function
runs; `import autoviz` never loads it.
"""

from .require import require_torch

__all__ = ["graph_of_torch", "is_torch_object", "require_torch", "trace_torch"]


def is_torch_object(obj) -> bool:
    """Whether `obj`'s type comes from torch, told without importing torch (autoviz's own
    tensors take torch's module name inside `as_torch()`, so they are told apart first)."""
    from ..engine.tensor import Tensor

    return type(obj).__module__.split(".")[0] == "torch" and not isinstance(obj, Tensor)


def graph_of_torch(root, namespace: dict | None = None, max_nodes: int | None = None):
    """The plain-data Graph behind torch tensor `root`, named after `namespace`'s variables."""
    require_torch("draw() of a torch tensor")
    from .walk import graph_of_torch as walk

    return walk(root, namespace or {}, max_nodes)


class trace_torch:
    """`with autoviz.trace_torch() as tl:` records what real torch code does; tl is a Timeline.

    Forward steps come in the order torch ran its ops, backward steps in the order torch's
    engine ran its nodes, with the gradient along every edge: the same Timeline as
    `autoviz.trace()` gives for autoviz's own tensors.
    """

    def __init__(self) -> None:
        require_torch("trace_torch()")

    def __enter__(self):
        import sys

        from ..collector import hold_oldest_generation
        from ..tracing.source import block_of
        from .recorder import TorchRecorder

        self.recorder = TorchRecorder(sys._getframe(1))
        timeline = self.recorder.start()
        timeline._block = block_of(sys._getframe(1))  # its text, read while it is the program's
        # Only once started: a start() that raised gets no __exit__ to restore the collector.
        self.thresholds = hold_oldest_generation()
        return timeline

    def __exit__(self, kind, error, tb) -> None:
        from ..collector import restore

        try:
            self.recorder.stop(error)
        finally:
            restore(self.thresholds)
