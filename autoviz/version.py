"""`torch.version`: what the build was made with, as PyTorch's CPU build answers (no CUDA, no
ROCm, a release build)."""

from .torch_version import __version__  # noqa: F401

cuda = None
hip = None
debug = False
