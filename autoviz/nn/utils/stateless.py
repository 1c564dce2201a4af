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


def _check_keys(module, given: dict) -> None:
    """strict=True: every parameter and buffer given, and nothing else (torch's message)."""
    names = [n for n, _ in module.named_parameters()] + [n for n, _ in module.named_buffers()]
    missing = [n for n in names if n not in given]
    unexpected = [n for n in given if n not in names]
    errors = []
    if missing:
        errors.append("Missing key(s): " + ", ".join(repr(n) for n in missing) + ".")
    if unexpected:
        errors.append("Unexpected key(s): " + ", ".join(repr(n) for n in unexpected) + ".")
    if errors:
        raise RuntimeError(
            f"Error(s) in reparametrizing for {type(module).__name__}:\n\t" + "\n\t".join(errors)
        )


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
    if strict:
        _check_keys(module, merged)
    args = () if args is None else (args if isinstance(args, tuple) else (args,))
    with _swapped(module, merged):
        return module(*args, **(kwargs or {}))
