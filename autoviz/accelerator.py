"""`torch.accelerator`: there is none; code that asks falls back to the CPU."""


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False):
    return None


def device_count() -> int:
    return 0
