"""Flatten and Unflatten: merge axes into one, or split one into several."""

from ... import engine as _F
from .module import Module


class Flatten(Module):
    """Merge the axes start_dim..end_dim into one (by default all but the batch axis)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):
        return _F.flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split axis `dim` into the axes of unflattened_size (a view, as Tensor.unflatten)."""

    def __init__(self, dim, unflattened_size) -> None:
        super().__init__()
        if isinstance(dim, int) and not isinstance(unflattened_size, (list, tuple)):
            raise TypeError(
                "unflattened_size must be tuple of ints, but found type "
                f"{type(unflattened_size).__name__}"
            )
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input):
        dim = self.dim % input.ndim
        sizes = list(self.unflattened_size)
        if -1 in sizes:
            known = 1
            for n in sizes:
                known *= n if n != -1 else 1
            sizes[sizes.index(-1)] = input.shape[dim] // known
        total = 1
        for n in sizes:
            total *= n
        if total != input.shape[dim]:
            raise RuntimeError(
                f"unflatten: Provided sizes {list(self.unflattened_size)} don't multiply up to "
                f"the size of dim {self.dim} ({input.shape[dim]}) in the input tensor"
            )
        return input.view(*input.shape[:dim], *sizes, *input.shape[dim + 1 :])

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
