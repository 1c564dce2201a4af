"""Every documented name of PyTorch's layer groups (torch.nn, nn.functional, nn.init,
nn.utils, optim, lr_scheduler, swa_utils, utils.data, distributions and their submodules,
listed from real torch in autoviz/torch_layer_names.txt by tools/torch_layer_names.py) resolves
inside `autoviz.as_torch()`, or is named below with the reason it is left out."""

import importlib
from pathlib import Path

import pytest

import autoviz

NAMES = Path(autoviz.__file__).with_name("torch_layer_names.txt")

_QUANTIZED = "quantised and fused-for-inference layers (autoviz computes in float32/float64)"
_FP8 = "GPU matrix products in fp8 and bfloat16, which autoviz has no dtypes for"
_TORCHSCRIPT = "a TorchScript typing helper, not something lesson code calls"
_DATAPIPES = "torchdata's DataPipes, deprecated in PyTorch and removed from torchdata"
_FUSED_CE = (
    "PyTorch 2.13's chunked, memory-saving fusion of linear and cross_entropy (a custom op "
    "over chunks): F.cross_entropy(F.linear(x, w, b), y) computes the same"
)
OUT_OF_SCOPE = {
    "torch.nn.backends": "PyTorch's internal thread-local flags for nn's C++ backends",
    "torch.nn.cpp": "wrappers of C++ frontend modules",
    "torch.nn.intrinsic": _QUANTIZED,
    "torch.nn.qat": _QUANTIZED,
    "torch.nn.quantizable": _QUANTIZED,
    "torch.nn.quantized": _QUANTIZED,
    "torch.nn.LinearCrossEntropyLoss": _FUSED_CE,
    "torch.nn.LinearCrossEntropyOptions": _FUSED_CE,
    "torch.nn.functional.linear_cross_entropy": _FUSED_CE,
    "torch.nn.modules.linear_cross_entropy": _FUSED_CE,
    "torch.nn.modules.linear_cross_entropy_options": _FUSED_CE,
    "torch.nn.functional.grouped_mm": _FP8,
    "torch.nn.functional.scaled_mm": _FP8,
    "torch.nn.functional.scaled_grouped_mm": _FP8,
    "torch.nn.functional.ScalingType": _FP8,
    "torch.nn.functional.SwizzleType": _FP8,
    "torch.optim.Muon": "orthogonalises each update in bfloat16, a dtype autoviz lacks",
    "torch.nn.functional.BroadcastingList1": _TORCHSCRIPT,
    "torch.nn.functional.BroadcastingList2": _TORCHSCRIPT,
    "torch.nn.functional.BroadcastingList3": _TORCHSCRIPT,
    "torch.nn.functional.boolean_dispatch": _TORCHSCRIPT,
    "torch.optim.SparseAdam": "needs sparse gradients (nn.Embedding(sparse=True)), not in autoviz",
    "torch.optim.sparse_adam": "needs sparse gradients (nn.Embedding(sparse=True)), not in autoviz",
    "torch.optim.swap_in_optimizer_params_and_state": "tensor subclass swapping for FSDP",
    **{
        f"torch.utils.data.{name}": _DATAPIPES
        for name in (
            "DFIterDataPipe",
            "DataChunk",
            "IterDataPipe",
            "MapDataPipe",
            "argument_validation",
            "functional_datapipe",
            "guaranteed_datapipes_determinism",
            "non_deterministic",
            "runtime_validation",
            "runtime_validation_disabled",
            "backward_compatibility",
            "datapipes",
            "graph",
            "graph_settings",
        )
    },
}


def _listed() -> list:
    names = []
    for line in NAMES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            owner, _, rest = line.partition(": ")
            names += [n if owner == "submodules" else f"{owner}.{n}" for n in rest.split()]
    return names


def _resolves(name: str) -> bool:
    with autoviz.as_torch():
        try:
            importlib.import_module(name)
            return True
        except ImportError:
            pass
        owner, _, attribute = name.rpartition(".")
        try:
            getattr(importlib.import_module(owner), attribute)
            return True
        except (ImportError, AttributeError):
            return False


LISTED = _listed()


def test_the_list_is_pytorchs():
    """Generated from PyTorch 2.13 (tools/torch_layer_names.py): about 700 names."""
    assert NAMES.read_text(encoding="utf-8").startswith("# documented names of PyTorch 2.13")
    assert len(LISTED) > 650
    assert set(OUT_OF_SCOPE) <= set(LISTED)


@pytest.mark.parametrize("name", [n for n in LISTED if n not in OUT_OF_SCOPE])
def test_every_documented_name_resolves_inside_as_torch(name):
    assert _resolves(name), f"{name} is documented in PyTorch and missing from autoviz"


@pytest.mark.parametrize("name", sorted(OUT_OF_SCOPE))
def test_what_is_left_out_says_so(name):
    """A name left out raises autoviz's NotInAutoviz (or a ModuleNotFoundError naming it),
    never a plain AttributeError that looks like a typo."""
    assert not _resolves(name), f"{name} is in autoviz now: take it off OUT_OF_SCOPE"
    owner, _, attribute = name.rpartition(".")
    with autoviz.as_torch():
        try:
            getattr(importlib.import_module(owner), attribute)
        except (AttributeError, ImportError) as error:
            assert "not in autoviz" in str(error), error
