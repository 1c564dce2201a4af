"""`torch.cuda`: no GPU here, answered as PyTorch's CPU build answers."""

from .engine.device import NO_CUDA


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed) -> None:
    """Accepted and ignored, as PyTorch does when there is no GPU."""


def manual_seed_all(seed) -> None:
    """Accepted and ignored, as PyTorch does when there is no GPU."""


def synchronize(device=None) -> None:
    raise AssertionError(NO_CUDA)


def current_device() -> int:
    raise AssertionError(NO_CUDA)


def get_device_name(device=None) -> str:
    raise AssertionError(NO_CUDA)


def empty_cache() -> None:
    """Nothing to free."""


def __getattr__(name: str):
    if name == "amp":
        from .amp import cuda_amp

        return cuda_amp
    from .torchnames import module_attribute

    raise module_attribute("torch.cuda", name)
