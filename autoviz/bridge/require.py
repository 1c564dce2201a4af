"""Import torch for the bridge, or say how to install it."""

from ..errors import TorchNotInstalled

# What to install: torch's CPU build is all autoviz needs, and pip's default on Linux is not it.
TORCH_HINT = (
    "pip install torch; autoviz needs only its CPU build, so on Linux, where pip's default is a "
    "CUDA build of several GB, take the CPU-only command from PyTorch's install page"
)


def require_torch(what: str):
    """The torch module; TorchNotInstalled saying how to install it when it is missing."""
    try:
        import torch
    except ImportError as error:
        raise TorchNotInstalled(
            f"{what} needs PyTorch, which is not installed. Install it with: {TORCH_HINT}",
            name="torch",
        ) from error
    return torch
