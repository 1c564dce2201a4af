"""`torch.save` and `torch.load`: tensors, state dicts and whole models in a pickle file, with
`weights_only=True` (PyTorch's default) refusing to run code from the file."""

import os
import pickle

MAGIC = b"AUTOVIZ1"  # files start with it; PyTorch's own files are zip archives ("PK")

# What a weights-only load may build: tensors, parameters, dtypes, devices, shapes and the
# plain containers of a state dict.
_SAFE = {
    ("autoviz.engine.tensor", "_rebuild"),
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
            return super().find_class(module, name)
        for obj in _SAFE_GLOBALS:
            if (obj.__module__, obj.__qualname__) == (module, name):
                return obj
        raise _weights_only_error(module, name)


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
