"""Import torch for the bridge, or say which extra installs it."""

from ..errors import TorchNotInstalled


def require_torch(what: str):
    """The torch module; TorchNotInstalled naming the `torch` extra when it is missing."""
    try:
        import torch
    except ImportError as error:
        raise TorchNotInstalled(
            f"{what} needs PyTorch, which is not installed. Install it with: pip install torch",
            name="torch",
        ) from error
    return torch
