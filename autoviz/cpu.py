"""`torch.cpu`: the one device autoviz computes on."""

from .amp import cpu_amp as amp  # noqa: F401 (torch.cpu.amp)


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> str:
    return "cpu"


def synchronize(device=None) -> None:
    """Nothing to wait for: every op has finished when it returns."""
