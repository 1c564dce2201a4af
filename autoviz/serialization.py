"""`torch.save` and `torch.load`: tensors, state dicts and whole models in a pickle file, with
`weights_only=True` (PyTorch's default) refusing to run code from the file."""

import os
import pickle

import numpy as np

MAGIC = b"AUTOVIZ1"  # files start with it; PyTorch's own files are zip archives ("PK")

# What a weights-only load may build: tensors, parameters, dtypes, devices, shapes and the
# plain containers of a state dict.
_SAFE = {
    ("autoviz.engine.tensor", "_rebuild"),
    ("autoviz.engine.tensor", "_rebuild_view"),
    ("autoviz.engine.storage", "rebuild_storage"),
    ("autoviz.engine.tensor", "_rebuild_size"),
    ("autoviz.nn.parameter", "rebuild_parameter"),
    ("autoviz.engine.dtypes", "from_name"),
    ("autoviz.engine.device", "rebuild_device"),
    ("collections", "OrderedDict"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "slice"),
    ("builtins", "complex"),
    ("_codecs", "encode"),  # how pickle protocol 2 writes bytes
    ("__builtin__", "bytes"),  # ... and b"" (an empty tensor's data): bytes() only
}
_SAFE_GLOBALS = []  # added with add_safe_globals


def _weights_only_error(module: str, name: str) -> pickle.UnpicklingError:
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two "
        "options, \x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. "
        "\n\t(1) In "
        "PyTorch 2.6, we changed the default value of the `weights_only` argument in "
        "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set "
        "to `False` will likely succeed, but it can result in arbitrary code execution. Do it "
        "only if you got the file from a trusted source.\n\t(2) Alternatively, to load with "
        "`weights_only=True` please check the recommended steps in the following error "
        f"message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL {module}.{name} was "
        "not an allowed global by default. Please use `torch.serialization.add_safe_globals("
        f"[{module}.{name}])` or the `torch.serialization.safe_globals([{module}.{name}])` "
        "context manager to allowlist this global if you trust this class/function.\n\nCheck "
        "the documentation of torch.load to learn more about types accepted by default with "
        "weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
    )


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) in _SAFE:
            return _checked(super().find_class(module, name), _CHECKS.get((module, name)))
        for obj in _SAFE_GLOBALS:
            if (obj.__module__, obj.__qualname__) == (module, name):
                return obj
        raise _weights_only_error(module, name)


def _checked(build, check):
    """`build`, refusing arguments it would make a tensor autoviz cannot hold from, and saying
    what was wrong with them as an UnpicklingError."""

    def checked_build(*args):
        try:
            if check is not None:
                check(*args)
            return build(*args)
        except pickle.UnpicklingError:
            raise
        except Exception as error:
            raise _bad_file(f"{type(error).__name__}: {error}") from None

    return checked_build


def _bad_file(reason: str) -> pickle.UnpicklingError:
    return pickle.UnpicklingError(
        f"Weights only load failed: {reason}. The file was not written by torch.save of "
        "autoviz tensors, or was changed since: load only files you trust the source of."
    )


def _tensor_args(data, dtype, shape, requires_grad, *rest) -> None:
    """What `_rebuild` and `rebuild_parameter` are given: the bytes of a tensor of one of
    autoviz's dtypes, its shape, and whether it requires grad."""
    if rest:
        raise _bad_file(f"a tensor is rebuilt from 4 values, the file gives {4 + len(rest)}")
    kind = _dtype_of(dtype)
    if not isinstance(data, bytes):
        raise _bad_file(f"a tensor's data must be bytes, the file gives {type(data).__name__}")
    if not isinstance(shape, tuple | list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape
    ):
        raise _bad_file(f"a tensor's shape must be sizes (integers >= 0), got {shape!r:.80}")
    if len(shape) > 64:
        raise _bad_file(f"a tensor of {len(shape)} dimensions (at most 64)")
    count = 1
    for n in shape:
        count *= n
    if len(data) != count * kind.itemsize:
        raise _bad_file(
            f"a tensor of shape {list(shape)} and dtype {kind!r} holds {count * kind.itemsize} "
            f"bytes, the file gives {len(data)} bytes"
        )
    if not isinstance(requires_grad, bool):
        raise _bad_file(f"requires_grad must be True or False, got {requires_grad!r:.40}")
    if requires_grad and not kind.is_floating_point:
        raise _bad_file(
            f"a tensor of dtype {kind!r} requires grad: only tensors of floating point dtype "
            "can require gradients"
        )


def _storage_args(*args) -> None:
    if len(args) != 1 or not isinstance(args[0], bytes):
        raise _bad_file("a storage is rebuilt from its bytes alone")


def _view_args(storage, dtype, shape, strides, offset, requires_grad, *rest) -> None:
    """What `_rebuild_view` is given: a rebuilt storage, and a view of it that stays inside."""
    if rest:
        raise _bad_file(f"a view is rebuilt from 6 values, the file gives {6 + len(rest)}")
    if not (isinstance(storage, np.ndarray) and storage.dtype == np.uint8 and storage.ndim == 1):
        raise _bad_file("a view's storage must be one that the file rebuilt")
    kind = _dtype_of(dtype)
    numbers = (shape, strides)
    if not all(isinstance(v, tuple | list) for v in numbers) or len(shape) != len(strides):
        raise _bad_file(
            f"a view's shape and strides must be lists of one length, got {shape!r:.60}"
        )
    values = [*shape, *strides, offset]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in values):
        raise _bad_file("a view's sizes, strides and offset must be integers >= 0")
    if len(shape) > 64:
        raise _bad_file(f"a tensor of {len(shape)} dimensions (at most 64)")
    if all(shape):  # its last element's last byte must lie in the storage
        end = offset + sum((n - 1) * s for n, s in zip(shape, strides, strict=True))
        if end + kind.itemsize > storage.size:
            raise _bad_file(
                f"a view reaches byte {end + kind.itemsize} of a storage of {storage.size} bytes"
            )
    if not isinstance(requires_grad, bool):
        raise _bad_file(f"requires_grad must be True or False, got {requires_grad!r:.40}")
    if requires_grad and not kind.is_floating_point:
        raise _bad_file(
            f"a tensor of dtype {kind!r} requires grad: only tensors of floating point dtype "
            "can require gradients"
        )


def _dtype_of(name):
    """One of autoviz's dtypes, named as numpy names it ("float32")."""
    from .engine.dtypes import from_numpy_dtype

    if isinstance(name, str):
        try:
            return from_numpy_dtype(np.dtype(name))
        except (TypeError, ValueError):
            pass
    raise _bad_file(f"a tensor of dtype {name!r:.60}, which autoviz does not have")


def _no_arguments(*args) -> None:
    """bytes() builds b""; bytes(n) would let a small file fill the memory."""
    if args:
        raise _bad_file(f"bytes() is saved without arguments, the file gives {len(args)}")


_CHECKS = {
    ("autoviz.engine.tensor", "_rebuild"): _tensor_args,
    ("autoviz.engine.tensor", "_rebuild_view"): _view_args,
    ("autoviz.engine.storage", "rebuild_storage"): _storage_args,
    ("autoviz.nn.parameter", "rebuild_parameter"): _tensor_args,
    ("autoviz.engine.dtypes", "from_name"): _dtype_of,
    ("__builtin__", "bytes"): _no_arguments,
}


def add_safe_globals(safe_globals) -> None:
    """Let weights-only loads build these classes or functions too."""
    _SAFE_GLOBALS.extend(safe_globals)


def _opened(f, mode: str):
    if isinstance(f, (str, os.PathLike)):
        return open(f, mode), True
    return f, False


def save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Write `obj` (a tensor, a state dict, a model, ...) to a path or a binary file."""
    file, mine = _opened(f, "wb")
    try:
        file.write(MAGIC)
        pickle_module.dump(obj, file, protocol=pickle_protocol)
    finally:
        if mine:
            file.close()


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **kwargs):
    """Read what `save` wrote. `weights_only` (the default) builds only tensors and plain
    containers; `weights_only=False` runs the file's pickle as it is (trusted files only)."""
    file, mine = _opened(f, "rb")
    try:
        head = file.read(len(MAGIC))
        if head[:2] == b"PK":
            raise RuntimeError(
                "this file was written by PyTorch's own torch.save, which autoviz cannot read: "
                "save it again with autoviz, or load it with PyTorch"
            )
        if head != MAGIC:
            raise pickle.UnpicklingError(
                "invalid load key: this is not a file written by torch.save"
            )
        if weights_only is False:
            return pickle.load(file)
        return _WeightsUnpickler(file).load()
    finally:
        if mine:
            file.close()


__all__ = ["add_safe_globals", "load", "save"]
