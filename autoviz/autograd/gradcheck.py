"""`torch.autograd.gradcheck`: backward's gradients against central finite differences."""

import warnings

import numpy as np

from ..engine.autograd import grad
from ..engine.grad_mode import no_grad
from ..engine.tensor import Tensor, make


class GradcheckError(RuntimeError):
    """The analytical and numerical Jacobians differ."""


def _as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _warn_precision(inputs) -> None:
    for i, t in enumerate(inputs):
        if isinstance(t, Tensor) and t.requires_grad and t._data.dtype != np.float64:
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ",
                UserWarning,
                stacklevel=3,
            )


def _outputs(func, inputs) -> tuple:
    return tuple(o for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor))


def numerical_jacobians(func, inputs, eps) -> list:
    """[input][output] Jacobians of shape (input numel, output numel), by central differences
    (each input element moved by ±eps in place, then put back)."""
    wanted = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    with no_grad():
        sizes = [o.numel() for o in _outputs(func, inputs)]
        result = []
        for t in wanted:
            store = t._storage()
            flat = store.reshape(-1)  # a view: moving its elements moves the input's
            per_output = [np.zeros((flat.size, n), dtype=store.dtype) for n in sizes]
            for k in range(flat.size):
                original = flat[k]
                flat[k] = original + eps
                up = [np.array(o._data) for o in _outputs(func, inputs)]
                flat[k] = original - eps
                down = [np.array(o._data) for o in _outputs(func, inputs)]
                flat[k] = original
                for jac, u, d in zip(per_output, up, down, strict=True):
                    jac[k] = ((u - d) / u.dtype.type(2 * eps)).reshape(-1)  # in the output's dtype
            result.append(per_output)
    return result


def analytical_jacobians(func, inputs) -> list:
    """[input][output] Jacobians from backward: one vector-Jacobian product per output element."""
    wanted = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    outputs = _outputs(func, inputs)
    result = [[np.zeros((t.numel(), o.numel()), t._data.dtype) for o in outputs] for t in wanted]
    for j, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for m in range(out.numel()):
            seed = np.zeros(out.numel(), out._data.dtype)
            seed[m] = 1
            grads = grad(out, wanted, make(seed.reshape(out.shape)), True, allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    result[i][j][:, m] = np.reshape(g._data, -1)
    return result


def gradcheck(
    func,
    inputs,
    *,
    eps=1e-06,
    atol=1e-05,
    rtol=0.001,
    raise_exception=True,
    nondet_tol=0.0,
    check_undefined_grad=True,
    check_grad_dtypes=False,
    check_batched_grad=False,
    check_batched_forward_grad=False,
    check_forward_ad=False,
    check_backward_ad=True,
    fast_mode=False,
    masked=None,
) -> bool:
    """True when every output's Jacobian from backward matches central differences (within
    atol + rtol·|numerical|); otherwise GradcheckError, or False with raise_exception=False."""
    inputs = _as_tuple(inputs)
    if not any(isinstance(t, Tensor) and t.requires_grad for t in inputs):
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them "
            "have requires_grad=True."
        )
    _warn_precision(inputs)
    numerical = numerical_jacobians(func, inputs, eps)
    analytical = analytical_jacobians(func, inputs)
    for i, (nums, anas) in enumerate(zip(numerical, analytical, strict=True)):
        for j, (num, ana) in enumerate(zip(nums, anas, strict=True)):
            if not np.allclose(ana, num.astype(ana.dtype), rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {j} with respect to input {i},\n"
                    f"numerical:{make(num)!r}\nanalytical:{make(ana)!r}\n"
                )
    return True


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps=1e-06,
    atol=1e-05,
    rtol=0.001,
    gen_non_contig_grad_outputs=False,
    raise_exception=True,
    **kwargs,
) -> bool:
    """gradcheck of the gradients themselves: the second derivatives of func, backward's
    (through create_graph=True) against central differences of the first."""
    inputs = _as_tuple(inputs)
    if grad_outputs is None:  # torch's: uniform in [-1, 1) from the global generator, checked too
        grad_outputs = tuple(_random_like(o) for o in _outputs(func, inputs) if o.requires_grad)
    grad_outputs = _as_tuple(grad_outputs)
    count = len(grad_outputs)

    def first_derivatives(*args):
        from ..engine.grad_mode import enable_grad

        xs, gs = args[: len(args) - count], args[len(args) - count :]
        with enable_grad():  # gradcheck's differences run under no_grad: the inner needs a graph
            outs = [o for o in _outputs(func, xs) if o.requires_grad]
            leaves = [x for x in xs if isinstance(x, Tensor) and x.requires_grad]
            grads = grad(outs, leaves, gs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_derivatives,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )


def _random_like(output) -> Tensor:
    """torch.testing.make_tensor(shape, low=-1, high=1, requires_grad=True): one uniform_ draw."""
    dtype = output._data.dtype if output._data.dtype.kind == "f" else np.float64
    return make(np.zeros(tuple(output.shape), dtype)).uniform_(-1, 1).requires_grad_()
