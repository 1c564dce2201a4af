"""torch.nn.attention: choosing scaled_dot_product_attention's kernel. autoviz has one (the
math of softmax(q kᵀ / √d) v), so sdpa_kernel only checks its argument."""

import contextlib
import enum


class SDPBackend(enum.IntEnum):
    """The kernels PyTorch can run scaled dot-product attention with."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Within it PyTorch restricts attention to `backends`; autoviz computes the same
    numbers with any of them."""
    chosen = backends if isinstance(backends, (list, tuple)) else [backends]
    for backend in chosen:
        if not isinstance(backend, SDPBackend):
            raise AssertionError("Backend must be an instance of SDPBackend")
    yield


__all__ = ["SDPBackend", "sdpa_kernel"]
