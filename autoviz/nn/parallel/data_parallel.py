"""`torch.nn.DataParallel` as PyTorch runs it with no GPU: a wrapper that calls its module."""

from ..modules.module import Module


class DataParallel(Module):
    """Splits a batch across GPUs where there are some; here, as in PyTorch without one, it
    holds the module (state_dict keys gain the prefix `module.`) and calls it."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0) -> None:
        super().__init__()
        self.module = module
        self.device_ids = []

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)
