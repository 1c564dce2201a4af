"""Tell a PyTorch API that autoviz lacks from a typo, for the error a failed lookup raises, and
say which of PyTorch's APIs are outside autoviz's scope by decision."""

import fnmatch
import functools
import os

from .errors import NotInAutoviz

_HINT = "autoviz has the parts of PyTorch that lessons use (docs/pytorch.md lists them)"


class _Owners(dict):
    """{owner: set of names}, each line of torch_names.txt split only when first asked for
    (`import autoviz` reads one: torch.Tensor's)."""

    def __init__(self, lines: dict) -> None:
        super().__init__()
        self._lines = lines

    def __missing__(self, owner: str) -> set:
        names = set(self._lines[owner].split())
        self[owner] = names
        return names

    def get(self, owner: str, default=None):
        return self[owner] if owner in self._lines else default


@functools.cache
def _names() -> _Owners:
    """{owner: set of public names}, read from torch_names.txt and torch_layer_names.txt
    (the nn, optim, utils.data and distributions groups; both written by tools/)."""
    lines = {}
    for listing in ("torch_names.txt", "torch_layer_names.txt"):
        # os.path, not pathlib: `import autoviz` reads a listing, and pathlib cost it 6 ms.
        with open(os.path.join(os.path.dirname(__file__), listing), encoding="utf-8") as f:
            text = f.read()
        for line in text.splitlines():
            if line and not line.startswith("#"):
                owner, _, names = line.partition(": ")
                lines[owner] = f"{lines[owner]} {names}" if owner in lines else names
    return _Owners(lines)


# What autoviz leaves out by decision: it teaches autograd on real dense CPU tensors, with
# numpy underneath. {reason: name patterns}; the README's "Out of scope" lists the same.
OUT_OF_SCOPE = {
    "complex numbers": "angle complex conj conj_physical* imag real polar view_as_complex* "
    "view_as_real* is_conj resolve_conj resolve_neg is_neg cfloat cdouble chalf complex32 "
    "complex64 complex128 eig eigvals",
    "sparse, quantized, nested and other layouts": "sparse* to_sparse* coalesce is_coalesced "
    "col_indices crow_indices ccol_indices* row_indices* indices values dense_dim sparse_dim "
    "sparse_mask sparse_resize* *indices_copy values_copy hspmm smm sspaddmm saddmm dsmm hsmm "
    "spmm quantize* dequantize fake_quantize* fused_moving_avg_obs_fake_quant quantized_* q_* "
    "int_repr qscheme is_quantized qint* quint* to_mkldnn mkldnn* to_padded_tensor to_dense "
    "nested* masked*_tensor is_sparse* SparseAdam",
    "spectral ops": "fft stft istft *_window",
    "devices, streams, threads and shared memory": "Event Stream pin_memory is_pinned "
    "record_stream share_memory_ share_memory is_shared ipu xpu mtia mps is_ipu is_xla is_xpu "
    "is_mps is_meta "
    "init_num_threads set_flush_denormal thread_safe_generator from_file module_load "
    "storage_type set_ is_set_to as_subclass const_data_ptr dim_order _assert_async "
    "set_multithreading_enabled enforce_grad_layout_policy cudnn_* miopen_* fbgemm_* "
    "distributed multiprocessing DistributedDataParallel",
    "raw strides and the copy variants of views": "as_strided* *_copy *_scatter empty_permuted "
    "channels_last channels_last_3d "
    "empty_strided new_empty_strided nonzero_static",
    # torch.special's: no lesson uses them, and torch has no derivative for them
    "Bessel and Airy functions and orthogonal polynomials": "airy_ai bessel_* modified_bessel_* "
    "scaled_modified_bessel_* spherical_bessel_* *_polynomial_*",
    "factorizations beyond the lessons": "lu lu_* ldl_* geqrf orgqr ormqr "
    "householder_product matrix_exp "
    "tensorinv tensorsolve svd_lowrank pca_lowrank lobpcg",
    "compilation, tracing and functional transforms": "jit compile export func vmap fx onnx "
    "compiler library package profiler NestedIOFunction forward_ad",
    "downloads and logging services": "hub tensorboard",
    "functorch's first-class dimensions": "index",
    "dtypes numpy does not have": "bfloat16 float8_* float4_* bits* uint1 uint2 uint3 uint4 "
    "uint5 uint6 uint7 int1 int2 int3 int4 int5 int6 int7",
}


@functools.cache
def _scope_patterns() -> list:
    return [(reason, p) for reason, patterns in OUT_OF_SCOPE.items() for p in patterns.split()]


def out_of_scope(name: str) -> str | None:
    """Why `name` is outside autoviz's scope, or None when it is only missing."""
    for reason, pattern in _scope_patterns():
        if fnmatch.fnmatchcase(name, pattern):
            return reason
    return None


def in_torch(owner: str, name: str) -> bool:
    """Whether PyTorch has `owner.name` (owner such as "torch.nn" or "torch.Tensor")."""
    return name in _names().get(owner, ())


def missing(owner: str, name: str, plain: str) -> AttributeError:
    """The error for a failed lookup of `name` on `owner`: NotInAutoviz when PyTorch has it,
    else `plain`, the AttributeError PyTorch itself would raise."""
    if not name.startswith("_") and in_torch(owner, name):
        reason = out_of_scope(name)
        if reason is not None:
            return NotInAutoviz(f"{owner}.{name} is not in autoviz: {reason} are outside its scope")
        return NotInAutoviz(f"{owner}.{name} is not in autoviz yet ({_HINT})")
    return AttributeError(plain)


def module_attribute(module: str, name: str) -> AttributeError:
    """`missing` for an attribute of a module such as torch.nn (or a submodule of it that
    PyTorch has, such as torch.nn.parallel)."""
    if not name.startswith("_") and f"{module}.{name}" in _names().get("submodules", ()):
        return NotInAutoviz(f"{module}.{name} is not in autoviz yet ({_HINT})")
    return missing(module, name, f"module {module!r} has no attribute {name!r}")


def submodule_missing(fullname: str) -> ModuleNotFoundError:
    """The error for `import torch.x` where autoviz has no torch.x."""
    parts = fullname.split(".")
    known = len(parts) >= 2 and parts[1] in _names().get("modules", ())
    if known or fullname in _names().get("submodules", ()):
        reason = next(filter(None, map(out_of_scope, parts[1:])), None)
        if reason is not None:
            text = f"{fullname} is not in autoviz: {reason} are outside its scope"
            return ModuleNotFoundError(text, name=fullname)
    if known or fullname in _names().get("submodules", ()):
        return ModuleNotFoundError(f"{fullname} is not in autoviz yet ({_HINT})", name=fullname)
    return ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)


class _NotYet:
    """A PyTorch Tensor method autoviz lacks: reading it raises NotInAutoviz (so hasattr
    is False), where a __getattr__ would slow every attribute read of every tensor."""

    __slots__ = ("name",)

    def __set_name__(self, owner, name) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        raise missing("torch.Tensor", self.name, "")


def mark_missing(cls, owner: str) -> None:
    """Give `cls` a _NotYet for each of PyTorch's public names for `owner` it does not have."""
    for name in _names().get(owner, ()):
        if not hasattr(cls, name):
            slot = _NotYet()
            slot.name = name
            setattr(cls, name, slot)
