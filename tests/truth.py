"""The truth audit's instruments: what a program's tensors really were at each step, recorded by
hooks that share nothing with autoviz's tracers (an engine observer of its own for autoviz, a
TorchFunctionMode and autograd hooks for torch), and a check that a shown text says only what
is true of a real array: each number an honest rounding of the real one."""

import math
import re
from decimal import Decimal
from functools import partial

import numpy as np

NUMBER = r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[+-]\d+)?)"


def honest(text: str, real: float) -> bool:
    """Whether number `text` is `real` rounded to the digits it shows: "1364" for 1363.86,
    "1363.9" too, never "1364.0"; nan, inf and the sign of zero exactly."""
    if text in ("nan", "inf", "-inf"):
        return text == ("nan" if math.isnan(real) else "inf" if real > 0 else "-inf")
    if not math.isfinite(real):
        return False
    if isinstance(real, (bool, np.bool_)):
        return text == str(bool(real))
    if float(text) == 0 or real == 0:
        return float(text) == real and text.startswith("-") == (math.copysign(1, real) < 0)
    mantissa, _, exponent = text.partition("e")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    unit = Decimal(10) ** (int(exponent or 0) - decimals)
    return abs(Decimal(text) - Decimal(float(real))) <= unit / 2


def shape_text(shape) -> str:
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def stats(real: np.ndarray) -> dict:
    """The statistics a view may show, computed here in float64 over every element."""
    x = np.asarray(real, dtype=np.float64).ravel()
    finite = x[np.isfinite(x)]
    return {
        "min": finite.min() if finite.size else None,
        "max": finite.max() if finite.size else None,
        "mean": finite.sum() / finite.size if finite.size else None,
        "norm": math.sqrt(float(np.sum(x * x))),
    }


def check_text(text: str, real, where: str) -> None:
    """Fail unless `text` (a label's value or grad row, a card's, a tooltip's) is true of
    `real` (an array, or None for a grad that is None)."""
    assert "?" not in text and "not recorded" not in text, f"{where}: {text!r}"
    if real is None:
        assert text.startswith("None"), f"{where}: {text!r} for a grad that is None"
        return
    real = np.asarray(real)
    assert not text.startswith("None"), f"{where}: {text!r}, but it is {real!r}"
    if real.ndim == 0:
        value = real.item()
        assert honest(text, value) or text == str(value), f"{where}: {text!r} for {value!r}"
        return
    flat = real.ravel()
    dims = shape_text(real.shape)
    assert dims in text, f"{where}: {text!r} does not give the shape {dims}"
    if text.startswith(("ones ", "zeros ")) or " all " in text:
        target = 1 if text.startswith("ones") else 0 if text.startswith("zeros") else None
        if target is None:
            target = float(text.rsplit(" all ", 1)[1])
            assert all(honest(text.rsplit(" all ", 1)[1], v) for v in flat.tolist()), where
        else:
            assert np.all(flat == target), f"{where}: {text!r} but not all {target}"
        return
    elements = re.search(r"\[([^\]]*)\]", text)
    if elements:
        shown = [t.strip() for t in elements.group(1).split(",") if t.strip() != "…"]
        for i, t in enumerate(shown):
            assert honest(t, flat[i].item()), f"{where}: element {i} is {flat[i]!r}, shown {t}"
    found = dict(re.findall(rf"\b(min|max|mean|norm) ({NUMBER})", text))
    if real.size > 4 or found:
        truth = stats(real)
        assert {"min", "max", "mean"} <= set(found), f"{where}: {text!r} lacks statistics"
        for key, t in found.items():
            assert honest(t, truth[key]), f"{where}: {key} is {truth[key]!r}, shown {t}"
    else:
        assert elements and len(shown) == real.size, f"{where}: {text!r} hides elements"


def block_means(real: np.ndarray, block) -> list:
    """A heatmap's cells computed here: the mean of each block of the tensor laid out as rows
    (its leading dimensions flattened) and columns."""
    real = np.asarray(real, dtype=np.float64)
    rows = int(np.prod(real.shape[:-1])) if real.ndim > 1 else 1
    m = real.reshape(rows, real.shape[-1])
    br, bc = block
    return [
        float(m[r : r + br, c : c + bc].mean())
        for r in range(0, rows, br)
        for c in range(0, m.shape[1], bc)
    ]


class Truth:
    """The real tensors of a run: each op's output (in the order ops ran) and the tensors it
    took, each leaf's value as first used and after each change, each leaf's grad after each
    accumulation or reset."""

    def __init__(self) -> None:
        self.ops = []  # (op name, output array, [input keys or None])
        self.first = {}  # leaf key -> its value when an op first used it
        self.values = {}  # leaf key -> [array after each update]
        self.grads = {}  # leaf key -> [("acc" | "reset", array or None)]
        self.keep = []  # the tensors themselves: their ids stay theirs
        self.upstream = {}  # op number (in self.ops) -> the gradient its backward received


class EngineTruth(Truth):
    """An observer of autoviz's engine, registered beside the tracer's."""

    def _key(self, t):
        self.keep.append(t)
        return id(t)

    def on_op(self, fn, out, inputs) -> None:
        keys = []
        for t in inputs:
            if hasattr(t, "_data"):
                key = self._key(t)
                if t.grad_fn is None and t.requires_grad:
                    self.first.setdefault(key, np.array(t._data))
                keys.append(key)
            else:
                keys.append(None)
        self.number = getattr(self, "number", {})
        self.number[id(fn)] = len(self.ops)
        self.keep.append(fn)
        self.ops.append((fn.name(), np.array(out._data), keys))

    def on_node(self, fn, grad, grads) -> None:
        j = getattr(self, "number", {}).get(id(fn))
        if j is not None:
            self.upstream.setdefault(j, np.array(grad))

    def on_accumulate(self, t, grad) -> None:
        if t.grad_fn is None:
            self.grads.setdefault(self._key(t), []).append(("acc", np.array(t._grad._data)))
            self.owner = getattr(self, "owner", {})
            self.owner[id(t._grad)] = t

    def _changed(self, t) -> None:
        if id(t) in self.first:
            self.values.setdefault(id(t), []).append(np.array(t._data))
        owner = getattr(self, "owner", {}).get(id(t))
        if owner is not None:  # a grad zeroed in place
            self.grads.setdefault(id(owner), []).append(("reset", np.array(t._data)))

    def on_update(self, t, optimizer, group) -> None:
        self._changed(t)

    def on_inplace(self, t) -> None:
        self._changed(t)

    def on_zero(self, t) -> None:
        self._changed(t)

    def on_zero_grad(self, tensors, set_to_none) -> None:
        for t in tensors:
            if id(t) in self.first:
                grad = None if t._grad is None else np.array(t._grad._data)
                self.grads.setdefault(id(t), []).append(("reset", grad))

    def on_grad_set(self, t, value) -> None:
        if id(t) in self.first:
            grad = None if value is None else np.array(value._data)
            self.grads.setdefault(id(t), []).append(("reset", grad))


def _in_place(name: str) -> bool:
    """Whether torch function `name` changes its first argument (`sub_`, `-=`, `x[i] = v`)."""
    if name.startswith("__"):
        return name in ("__iadd__", "__isub__", "__imul__", "__itruediv__", "__setitem__")
    return name.endswith("_")


def torch_truth():
    """A TorchFunctionMode recording what torch ran, with autograd hooks on the leaves."""
    import torch
    from torch.overrides import TorchFunctionMode

    def copy(t):
        with torch._C.DisableTorchFunction():
            return t.detach().cpu().numpy().copy()

    class TorchTruth(Truth, TorchFunctionMode):
        def __init__(self) -> None:
            Truth.__init__(self)
            TorchFunctionMode.__init__(self)
            self.stepping = False
            self.grad_of = {}  # id(a leaf's grad tensor) -> the leaf

        def _leaf(self, t) -> None:
            if id(t) in self.first:
                return
            self.keep.append(t)
            self.first[id(t)] = copy(t)

            def accumulated(p) -> None:
                self.grads.setdefault(id(p), []).append(("acc", copy(p.grad)))
                self.grad_of[id(p.grad)] = p

            t.register_post_accumulate_grad_hook(accumulated)

        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = getattr(func, "__name__", "")
            if name == "__set__" and args and id(args[0]) in self.first:  # p.grad = ...
                out = func(*args, **kwargs)
                grad = args[1]
                self.grads.setdefault(id(args[0]), []).append(
                    ("reset", None if grad is None else copy(grad))
                )
                return out
            tensors = [a for a in args if isinstance(a, torch.Tensor)]
            for t in tensors:
                if t.is_leaf and t.requires_grad:
                    self._leaf(t)
            out = func(*args, **kwargs)
            target = args[0] if args and isinstance(args[0], torch.Tensor) else None
            if _in_place(name) and target is not None and not self.stepping:
                if id(target) in self.first:
                    self.values.setdefault(id(target), []).append(copy(target))
                elif id(target) in self.grad_of:  # p.grad.zero_()
                    leaf = self.grad_of[id(target)]
                    self.grads.setdefault(id(leaf), []).append(("reset", copy(target)))
            results = out if isinstance(out, tuple) else (out,)
            for result in results:
                if isinstance(result, torch.Tensor) and result.grad_fn is not None:
                    self.keep.append(result)
                    keys = [id(a) if isinstance(a, torch.Tensor) else None for a in args]
                    j = len(self.ops)
                    self.ops.append((result.grad_fn.name(), copy(result), keys))
                    with torch._C.DisableTorchFunction():
                        result.register_hook(partial(self._arrived, j))
            return out

        def _arrived(self, j: int, grad) -> None:
            self.upstream.setdefault(j, copy(grad))

        def watch(self, optimizer) -> None:
            """One update per parameter per optimizer step, as the timeline has it."""

            def before(opt, args, kwargs) -> None:
                self.stepping = True

            def after(opt, args, kwargs) -> None:
                self.stepping = False
                for group in opt.param_groups:
                    for p in group["params"]:
                        if id(p) in self.first and p.grad is not None:
                            self.values.setdefault(id(p), []).append(copy(p))

            optimizer.register_step_pre_hook(before)
            optimizer.register_step_post_hook(after)

    return TorchTruth()
