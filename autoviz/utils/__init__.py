"""`torch.utils`: the data loading tools (`torch.utils.data`)."""


def __getattr__(name: str):
    if name == "data":
        from . import data

        return data
    from ..torchnames import module_attribute

    raise module_attribute("torch.utils", name)
