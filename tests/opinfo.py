"""PyTorch's own test data as the oracle: every OpInfo of `op_db` whose op autoviz has, run on
torch's sample inputs in both libraries, compared value for value.

For each op and float32/float64 sample, and forward only for int64/int32/uint8/bool ones: the
forward result (values within torch's own `assert_close` tolerances, NaNs and signed zeros
where they are, dtype, shape), the gradients of every input that requires grad
(torch.autograd.grad as the reference, the same random output gradient for both), the method
and in-place variants where torch has them; and for each of torch's `error_inputs` the
exception's type and message. `python tests/opinfo.py`
prints the counts.
"""

from __future__ import annotations

import re
import sys
import warnings
from dataclasses import dataclass, field

import numpy as np

import autoviz
from autoviz.errors import NotInAutoviz

MAX_SAMPLES = 24  # per op and dtype: torch's generators give up to a few hundred
DTYPES = ("float32", "float64")
# Integer and bool samples, forward only: the dtype PyTorch's promotion gives, exact values.
INTEGER_DTYPES = ("int64", "int32", "uint8", "bool")
MAX_INTEGER_SAMPLES = 8

# Known deviations: a reason, then the ops it covers (OpInfo name with its variant after a
# dot), each alone, as op:check (forward, dtype, grad, method, inplace, error) or as op@dtype
# (that dtype's samples only). Kept short.
# Deviations that show on some CPUs only: the test does not require them to show here.
FLOAT32_SUMS = (
    "matmul@float32 pow:grad logcumsumexp:grad linalg.multi_dot:grad erfinv:forward "
    "addbmm:forward linalg.lstsq@float32 linalg.lstsq.grad_oriented@float32 "
    "triangular_solve:grad"
)
PLATFORM_DEPENDENT = set(FLOAT32_SUMS.split()) | {
    "nn.functional.scaled_dot_product_attention@float32"
}
DEVIATIONS = (
    (
        "out= overlapping an input or itself (torch's memory-overlap check), or of another "
        "dtype than the result, is not refused with torch's message",
        "arange:error amax:error amin:error aminmax:error gather cat take:error "
        "masked_select:error index_select:error kthvalue:error",
    ),
    (
        "0-d or empty inputs along a dim",
        "index_add:forward index_copy:forward index_fill:forward index_select:forward "
        "scatter:forward scatter_add:forward "
        "linalg.pinv:forward linalg.pinv.hermitian:forward "
        "nn.functional.batch_norm "
        "diff:forward "
        "pinverse:forward linalg.vander:forward "
        "masked_scatter:forward gradient:forward",
    ),
    (
        "float32 sums in another order than torch's kernels (up to 3e-4 relative; lstsq's "
        "gradient goes through LAPACK's float32 pseudo-inverse); which samples cross the "
        "tolerance depends on the CPU (AVX2 or AVX-512 kernels)",
        FLOAT32_SUMS,
    ),
    (
        "not differentiable in autoviz: the random functions, frexp, combinations of one row",
        "bernoulli normal normal.number_mean frexp:grad combinations:grad nextafter:grad "
        "gradient:grad",
    ),
    (
        "a gradient torch leaves None (p=0 norms, matrix_power(A, 0), a tensor index_fill value)",
        "norm:grad linalg.norm:grad linalg.norm.subgradients_at_zero:grad "
        "linalg.vector_norm:grad linalg.matrix_power:grad index_fill:grad cdist:grad",
    ),
    ("the nuclear norm through torch.norm", "norm.nuc"),
    (
        "torch's addbmm_ resizes a smaller input to the result's shape; autoviz refuses",
        "addbmm:inplace",
    ),
    ("eigenvectors' signs are LAPACK's choice, and numpy's differs", "linalg.eigh:forward"),
    (
        "gradients autoviz lacks: qr of wide matrices, pinv of rank-deficient matrices, "
        "einsum with '...' or a repeated subscript",
        "linalg.qr:grad qr:grad linalg.pinv.singular:grad "
        "linalg.pinv.hermitian:grad "
        "einsum tensordot:forward",
    ),
    (
        "nn.functional's layers: ignore_index, probability targets and margins' -0.0, empty "
        "batches, 0-d weights, argument checks with other messages (max_unpool, multilabel "
        "margins, 3-d pooling's empty dims), conv_transpose's input gradient with "
        "output_padding and dilation, circular negative padding, broadcast "
        "cosine_similarity, p=0 pdist and full poisson_nll_loss gradients, a distance module "
        "in triplet_margin_with_distance_loss, embedding_bag's per_sample_weights, float32 "
        "conv3d sums",
        "nn.functional.cross_entropy nn.functional.nll_loss nn.functional.embedding "
        "nn.functional.adaptive_avg_pool1d nn.functional.adaptive_avg_pool3d "
        "nn.functional.max_pool3d:error "
        "nn.functional.conv_transpose2d:grad "
        "nn.functional.conv_transpose3d:grad nn.functional.conv3d nn.functional.group_norm "
        "nn.functional.layer_norm nn.functional.pad.circular "
        "nn.functional.multi_margin_loss nn.functional.multilabel_margin_loss:error "
        "nn.functional.max_unpool1d:error nn.functional.max_unpool2d:error "
        "nn.functional.max_unpool3d:error nn.functional.prelu "
        "nn.functional.triplet_margin_with_distance_loss "
        "nn.functional.embedding_bag:forward "
        "nn.functional.cosine_similarity:forward nn.functional.pdist:grad "
        "nn.functional.poisson_nll_loss:grad",
    ),
    (
        "torch's own float32 attention is platform-dependent: its CPU flash kernel's exp "
        "(exp_u20 on AVX-512) and gemm blocking differ with ATEN_CPU_CAPABILITY, and torch's "
        "default, AVX2 and AVX-512 builds disagree beyond the tolerance on 16 of 24 samples "
        "(up to 1e-2 relative on cancelling gradients); autoviz lies within that spread",
        "nn.functional.scaled_dot_product_attention@float32",
    ),
)
KNOWN = {key: reason for reason, keys in DEVIATIONS for key in keys.split()}


@dataclass
class Report:
    """What one op's comparison found: samples checked and the mismatches, by check."""

    op: str
    samples: int = 0
    errors: int = 0
    problems: list = field(default_factory=list)  # (check, sample, message)

    def add(self, check: str, sample: str, message: str) -> None:
        self.problems.append((check, sample, message))


def load_op_db() -> list:
    """torch's OpInfos, or [] when torch (or its test helpers) are not installed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from torch.testing._internal.common_methods_invocations import op_db
    except ImportError:
        return []
    return op_db


def full_name(info) -> str:
    return info.name + (f".{info.variant_test_name}" if info.variant_test_name else "")


def _attribute(root, path: str):
    for part in path.split("."):
        root = getattr(root, part)
    return root


def autoviz_function(info):
    """The autoviz callable for an OpInfo, or None when autoviz does not have the op.

    Most OpInfos call torch's function of their name; the others call a lambda written with
    `torch.` names, run here with those names bound to autoviz.
    """
    import torch

    name = info.name  # _segment_reduce tests torch.segment_reduce
    if name.startswith("_") and getattr(torch, name[1:], None) is info.op:
        name = name[1:]
    try:
        ours = _attribute(autoviz, name)
    except (AttributeError, NotInAutoviz, ImportError):
        return _method(info)
    try:
        theirs = _attribute(torch, name)
    except AttributeError:
        theirs = None
    if theirs is info.op:
        return ours
    return _rebound(info.op)


def _method(info):
    """For an OpInfo of a Tensor method or attribute torch has no function for (`x.expand`,
    `x.T`, `x.__radd__`): autoviz's method, or the OpInfo's lambda run on autoviz tensors."""
    import torch

    name = info.name
    try:
        ours = getattr(autoviz.Tensor, name)
    except (AttributeError, NotInAutoviz):
        return None
    if not hasattr(torch.Tensor, name):
        return None
    return ours if info.op is getattr(torch.Tensor, name) else _rebound(info.op)


def _rebound(function):
    """`function` (written against `torch`) calling autoviz's names instead."""

    def call(*args, **kwargs):
        namespace = function.__globals__
        real = namespace.get("torch")
        namespace["torch"] = autoviz
        try:
            return function(*args, **kwargs)
        finally:
            namespace["torch"] = real

    return call


def implemented(op_db) -> list:
    """The OpInfos whose op autoviz has, less those KNOWN to be another thing entirely."""
    return [info for info in op_db if autoviz_function(info) is not None]


# -- torch values as autoviz values ------------------------------------------------------------
def to_autoviz(value, leaves: list):
    """A torch sample argument as autoviz's: tensors with the same data, strides and
    requires_grad (each (torch, autoviz) leaf pair appended to `leaves`), containers alike."""
    import torch

    if isinstance(value, torch.Tensor):
        if value.device.type != "cpu":
            raise ValueError(f"a sample on torch's {value.device.type} device")
        data = value.detach().clone(memory_format=torch.preserve_format).numpy()
        ours = autoviz.from_numpy(data)
        if value.requires_grad:
            ours.requires_grad_(True)
            leaves.append((value, ours))
        return ours
    if isinstance(value, torch.dtype):
        return getattr(autoviz, str(value).removeprefix("torch."))
    if isinstance(value, torch.Size):
        return tuple(value)
    if isinstance(value, (list, tuple)):
        items = [to_autoviz(v, leaves) for v in value]
        return type(value)(items) if not hasattr(value, "_fields") else type(value)(*items)
    if isinstance(value, dict):
        return {k: to_autoviz(v, leaves) for k, v in value.items()}
    return value


def tensors_of(value) -> list:
    """The tensors in an op's result, in order (a tensor, a tuple of them, a namedtuple)."""
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_of(v)]
    return [value] if hasattr(value, "shape") and hasattr(value, "dtype") else []


def as_numpy(t) -> np.ndarray:
    import torch

    if isinstance(t, torch.Tensor):
        return t.detach().numpy(force=True)  # torch's zero tensors too
    return np.asarray(t._data)


TOLERANCE = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def difference(theirs, ours) -> str | None:
    """Why two results differ (dtype, shape, values, signed zeros), or None."""
    import torch

    if isinstance(theirs, torch.Tensor):
        if not hasattr(ours, "_data"):
            return f"torch gives a tensor, autoviz a {type(ours).__name__}"
        if str(theirs.dtype) != repr(ours.dtype):
            return f"dtype: torch {theirs.dtype}, autoviz {ours.dtype!r}"
        if tuple(theirs.shape) != tuple(ours.shape):
            return f"shape: torch {list(theirs.shape)}, autoviz {list(ours.shape)}"
        return _values(as_numpy(theirs), as_numpy(ours))
    if isinstance(theirs, (list, tuple)):
        if not isinstance(ours, (list, tuple)) or len(ours) != len(theirs):
            return f"torch gives {len(theirs)} results, autoviz {type(ours).__name__}"
        for i, (a, b) in enumerate(zip(theirs, ours, strict=True)):
            why = difference(a, b)
            if why:
                return f"result {i}: {why}"
        return None
    if isinstance(theirs, (bool, int, float)):
        if isinstance(ours, (bool, int, float)) and (theirs == ours or theirs != theirs):
            return None
        return f"torch gives {theirs!r}, autoviz {ours!r}"
    return None


def _values(a: np.ndarray, b: np.ndarray) -> str | None:
    if a.dtype.kind not in "fc":
        if not np.array_equal(a, b):
            return f"values differ at {np.argwhere(a != b)[:3].tolist()}"
        return None
    rtol, atol = TOLERANCE.get(a.dtype.name, (1e-7, 1e-7))
    with np.errstate(invalid="ignore"):
        close = np.isclose(b, a, rtol=rtol, atol=atol, equal_nan=True)
    if not close.all():
        where = np.argwhere(~close)[:1].tolist()
        i = tuple(where[0]) if where and a.ndim else ()
        return f"values differ at {where}: torch {a[i]!r}, autoviz {b[i]!r}"
    zeros = (a == 0) & (b == 0)
    if (np.signbit(a) != np.signbit(b))[zeros].any():
        where = np.argwhere(zeros & (np.signbit(a) != np.signbit(b)))[:1].tolist()
        return f"signed zero differs at {where}: torch {a[tuple(where[0])] if a.ndim else a}"
    return None


# -- running one op --------------------------------------------------------------------------------
def _run(function, args, kwargs):
    """(result, None) or (None, the exception)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function(*args, **kwargs), None
        except Exception as error:
            return None, error


def _describe(sample) -> str:
    parts = [_shape_text(sample.input)] + [_shape_text(a) for a in sample.args]
    parts += [f"{k}={_shape_text(v)}" for k, v in sample.kwargs.items()]
    return f"({', '.join(parts)})"


def _shape_text(value) -> str:
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return f"{str(value.dtype).removeprefix('torch.')}{list(value.shape)}"
    if isinstance(value, (list, tuple)) and len(value) > 4:
        return f"[{len(value)} items]"
    return repr(value)


def check_op(info, dtypes=DTYPES, max_samples=MAX_SAMPLES) -> Report:
    """Compare autoviz with torch over the OpInfo's samples and error inputs."""
    import torch

    report = Report(full_name(info))
    ours = autoviz_function(info)
    limits = {name: max_samples for name in dtypes}
    limits |= {name: min(max_samples, MAX_INTEGER_SAMPLES) for name in INTEGER_DTYPES}
    for name, limit in limits.items():
        dtype = getattr(torch, name)
        if not info.supports_dtype(dtype, "cpu"):
            continue
        grad = info.supports_autograd and dtype.is_floating_point
        samples = info.sample_inputs("cpu", dtype, requires_grad=grad)
        for k, sample in enumerate(samples):
            if k >= limit:
                break
            report.samples += 1
            _check_sample(info, ours, sample, f"{name} #{k} {_describe(sample)}", report)
    _check_errors(info, ours, report)
    return report


def _check_sample(info, ours, sample, label: str, report: Report) -> None:
    import torch

    torch.manual_seed(42)  # the seed of torch's wrapper_set_seed: random ops agree
    theirs, their_error = _run(info.op, (sample.input, *sample.args), sample.kwargs)
    leaves = []
    try:
        args = to_autoviz((sample.input, *sample.args), leaves)
        kwargs = to_autoviz(dict(sample.kwargs), [])
    except ValueError:  # a sample on torch's meta device: no numbers to compare
        report.samples -= 1
        return
    autoviz.manual_seed(42)
    mine, my_error = _run(ours, args, kwargs)
    if their_error is not None:
        if my_error is None:
            report.add("error", label, f"torch raised {their_error!r}, autoviz did not")
        return
    if my_error is not None:
        report.add("forward", label, f"autoviz raised {type(my_error).__name__}: {my_error}")
        return
    if info.has_nondeterministic_output or info.name.startswith(
        ("empty", "new_empty", "rand", "normal")
    ):
        why = _structure(theirs, mine)
    else:
        why = difference(theirs, mine)
    if why:
        report.add("dtype" if why.startswith("dtype") else "forward", label, why)
        return
    if leaves:
        _check_grads(sample, theirs, mine, leaves, label, report)
    _check_variants(info, sample, label, report)


def _structure(theirs, mine) -> str | None:
    """For random or uninitialised results: dtype and shape only."""
    for a, b in zip(tensors_of(theirs), tensors_of(mine), strict=False):
        if str(a.dtype) != repr(b.dtype) or tuple(a.shape) != tuple(b.shape):
            return f"torch {a.dtype}{list(a.shape)}, autoviz {b.dtype!r}{list(b.shape)}"
    return None


def _check_grads(sample, theirs, mine, leaves, label: str, report: Report) -> None:
    """d(Σ seed·output)/d input in both, for the same random seeds."""
    import torch

    theirs = sample.output_process_fn_grad(theirs)
    try:
        mine = sample.output_process_fn_grad(mine)
    except Exception:
        return
    pairs = [
        (a, b)
        for a, b in zip(tensors_of(theirs), tensors_of(mine), strict=False)
        if a.requires_grad and a.dtype.is_floating_point
    ]
    if not pairs:
        return
    rng = np.random.default_rng(0)
    seeds = [rng.standard_normal(tuple(a.shape)).astype(str(a.dtype)[6:]) for a, _ in pairs]
    inputs = [t for t, _ in leaves]
    expected = torch.autograd.grad(
        [a for a, _ in pairs],
        inputs,
        [torch.from_numpy(s) for s in seeds],
        allow_unused=True,
    )
    if any(not b.requires_grad for _, b in pairs):
        report.add("grad", label, "autoviz's result does not require grad")
        return
    got, error = _run(
        autoviz.autograd.grad,
        ([b for _, b in pairs], [t for _, t in leaves], [autoviz.from_numpy(s) for s in seeds]),
        {"allow_unused": True},
    )
    if error is not None:
        report.add("grad", label, f"autoviz raised {type(error).__name__}: {error}")
        return
    for i, (e, g) in enumerate(zip(expected, got, strict=True)):
        if (e is None) != (g is None):
            report.add("grad", label, f"input {i}: torch {e is not None}, autoviz {g is not None}")
        elif e is not None:
            why = difference(e, g)
            if why:
                report.add("grad", label, f"input {i}: {why}")


def _check_variants(info, sample, label: str, report: Report) -> None:
    """x.op(...) and x.op_(...) where torch has them, forward values only."""
    import torch

    name = info.name
    if "." in name or not isinstance(sample.input, torch.Tensor):
        return
    for check, variant, method in (
        ("method", info.method_variant, name),
        ("inplace", info.inplace_variant, name if name.endswith("_") else name + "_"),
    ):
        if variant is None:
            continue
        src = sample.input.detach().clone()
        torch.manual_seed(42)
        theirs, their_error = _run(variant, (src, *sample.args), sample.kwargs)
        if their_error is not None:
            continue
        try:
            args = to_autoviz((sample.input.detach(), *sample.args), [])
            kwargs = to_autoviz(dict(sample.kwargs), [])
        except ValueError:
            continue
        bound = getattr(args[0], method, None)
        if bound is None:
            report.add(check, label, f"autoviz has no Tensor.{method}")
            continue
        autoviz.manual_seed(42)
        mine, my_error = _run(bound, args[1:], kwargs)
        if my_error is not None:
            report.add(check, label, f"autoviz raised {type(my_error).__name__}: {my_error}")
            continue
        random = info.has_nondeterministic_output or name.startswith(("empty", "new_empty"))
        why = _structure(theirs, mine) if random else difference(theirs, mine)
        if why:
            report.add(check, label, why)


def _check_errors(info, ours, report: Report) -> None:
    """torch's error_inputs: the same exception type, and a message torch's regex accepts."""
    if info.error_inputs_func is None:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        errors = list(info.error_inputs("cpu"))
    for k, error in enumerate(errors):
        sample = error.sample_input
        _, theirs = _run(info.op, (sample.input, *sample.args), sample.kwargs)
        if not isinstance(theirs, error.error_type):
            continue  # torch itself does not raise it (torch's own test skips such a case)
        try:
            args = to_autoviz((sample.input, *sample.args), [])
            kwargs = to_autoviz(dict(sample.kwargs), [])
        except ValueError:  # an input numpy cannot hold (65 dims): torch's own limit is tested
            continue
        report.errors += 1
        _, raised = _run(ours, args, kwargs)
        label = f"error #{k} {_describe(sample)}"
        want = error.error_type.__name__
        if raised is None:
            report.add("error", label, f"torch raises {want}, autoviz raised nothing")
        elif not isinstance(raised, error.error_type):
            report.add("error", label, f"torch raises {want}, autoviz {raised!r}")
        elif not re.search(error.error_regex, str(raised)):
            report.add("error", label, f"message {str(raised)!r} misses {error.error_regex!r}")


def unexplained(report: Report) -> list:
    """The problems no KNOWN entry explains."""
    if report.op in KNOWN or report.op.split(".")[0] in KNOWN:
        return []
    return [
        p
        for p in report.problems
        if f"{report.op}:{p[0]}" not in KNOWN and f"{report.op}@{p[1].split()[0]}" not in KNOWN
    ]


def main() -> None:
    op_db = load_op_db()
    ops = implemented(op_db)
    reports = [check_op(info) for info in ops]
    samples = sum(r.samples for r in reports)
    errors = sum(r.errors for r in reports)
    bad = [r for r in reports if unexplained(r)]
    print(f"OpInfo: {len(ops)} of torch's {len(op_db)} OpInfos are autoviz ops; {samples} samples")
    print(
        f"and {errors} error inputs checked; {len(DEVIATIONS)} known deviations, {len(bad)} others"
    )
    for r in bad:
        for check, sample, message in unexplained(r)[:3]:
            print(f"  {r.op}:{check} {sample}: {message}")


if __name__ == "__main__":
    sys.exit(main())
