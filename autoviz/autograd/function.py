"""`torch.autograd.function`: the Function base class and once_differentiable."""

import functools

from ..engine.function import Function
from ..engine.grad_mode import no_grad

__all__ = ["Function", "once_differentiable"]


def once_differentiable(backward):
    """A Function's backward that is never differentiated again: it runs without recording,
    even under create_graph=True."""

    @functools.wraps(backward)
    def wrapper(ctx, *grad_outputs):
        with no_grad():
            return backward(ctx, *grad_outputs)

    return wrapper
