"""`torch.backends`: the flags lessons set (cudnn.deterministic) and ask (mps.is_available)."""

import types


def _namespace(name: str, doc: str, **attributes) -> types.ModuleType:
    module = types.ModuleType(f"torch.backends.{name}", doc)
    module.__dict__.update(attributes)
    return module


def _no() -> bool:
    return False


mps = _namespace("mps", "Apple's GPUs: not available here.", is_available=_no, is_built=_no)
cudnn = _namespace(
    "cudnn",
    "NVIDIA's cuDNN: not available here; its flags can be set and are ignored.",
    is_available=_no,
    enabled=True,
    deterministic=False,
    benchmark=False,
    allow_tf32=True,
)
cuda = _namespace("cuda", "CUDA: not available here.", is_built=_no)
mkldnn = _namespace("mkldnn", "oneDNN: not used here.", is_available=_no, enabled=False)
