"""`torch.nn.parallel`: DataParallel, which on a machine without GPUs runs its module as it is."""

from .data_parallel import DataParallel

__all__ = ["DataParallel"]
