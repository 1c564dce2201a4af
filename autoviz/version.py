"""`torch.version`: what the build was made with, as PyTorch's CPU build answers (no CUDA, no
ROCm, a release build)."""

cuda = None
hip = None
debug = False
