"""functional_call: run a module with some of its parameters and buffers replaced for one
call (the parameters as function arguments, as in meta-learning lessons)."""

import contextlib
import warnings


def _lookup(module, dotted):
    *path, name = dotted.split(".")
    for part in path:
        module = getattr(module, part)
    return module, name


@contextlib.contextmanager
def _swapped(module, tensors: dict):
    saved = []
    try:
        for dotted, value in tensors.items():
            owner, name = _lookup(module, dotted)
            store = "_parameters" if name in owner._parameters else "_buffers"
            saved.append((owner, store, name, getattr(owner, store)[name]))
            getattr(owner, store)[name] = value
        yield
    finally:
        for owner, store, name, value in reversed(saved):
            getattr(owner, store)[name] = value


def functional_call(
    module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False
):
    """module(*args, **kwargs) with the named parameters and buffers given (deprecated in
    torch 2.0 in favour of torch.func.functional_call, and torch says so)."""
    warnings.warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
        "removed in a future version of PyTorch. Please use `torch.func.functional_call` "
        "instead which is a drop-in replacement.",
        FutureWarning,
        stacklevel=2,
    )
    dicts = parameter_and_buffer_dicts
    merged = {}
    for d in dicts if isinstance(dicts, (list, tuple)) else [dicts]:
        for key in d:
            if key in merged:
                raise ValueError(
                    f"{key} appeared in multiple dictionaries; behavior of functional call "
                    "is ambiguous"
                )
        merged.update(d)
    args = () if args is None else (args if isinstance(args, tuple) else (args,))
    with _swapped(module, merged):
        return module(*args, **(kwargs or {}))
