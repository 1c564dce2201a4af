"""LazyModuleMixin: the marker of layers whose parameter shapes come from their first input."""


class LazyModuleMixin:
    """A module that makes its parameters on its first forward (LazyLinear, LazyConv2d, ...)."""

    cls_to_become = None

    def has_uninitialized_params(self) -> bool:
        from ..parameter import UninitializedParameter

        return any(isinstance(p, UninitializedParameter) for p in self._parameters.values())
