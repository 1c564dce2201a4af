"""`torch.utils`: the data loading tools (`torch.utils.data`) and `torch.utils.checkpoint`."""


def __getattr__(name: str):
    if name in ("data", "checkpoint"):
        import importlib  # not `from . import data`: that asks this __getattr__ again

        return importlib.import_module(f"{__name__}.{name}")
    from ..torchnames import module_attribute

    raise module_attribute("torch.utils", name)
