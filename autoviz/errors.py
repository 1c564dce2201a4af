"""Exceptions a user can meet, each saying what went wrong and how to fix it."""


class AutovizError(Exception):
    """Base of autoviz's own errors."""


class LayoutEngineNotFound(AutovizError, RuntimeError):
    """No Graphviz layout executable could be found."""


class LayoutError(AutovizError, RuntimeError):
    """The layout executable failed."""


class LayoutTimeout(LayoutError):
    """The layout executable took longer than the timeout."""


class TimelineFormatError(AutovizError, ValueError):
    """Timeline JSON that is malformed, truncated or of another format."""


class GraphTooLarge(AutovizError, ValueError):
    """A diagram with more nodes than `max_nodes`: refused before the layout engine runs."""


class TorchNotInstalled(AutovizError, ModuleNotFoundError):
    """The PyTorch bridge was used where torch is not installed."""


class NotInAutoviz(AutovizError, AttributeError):
    """A PyTorch API that autoviz does not have yet (an AttributeError, so hasattr works)."""
