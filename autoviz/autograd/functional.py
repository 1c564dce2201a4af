"""`torch.autograd.functional`: Jacobians, Hessians and vector products of a whole function."""

import numpy as np

from ..engine.autograd import grad
from ..engine.grad_mode import enable_grad
from ..engine.tensor import Tensor, make

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _as_tuple(x, arg: str, fn: str) -> tuple[bool, tuple]:
    """(was it a tuple, the tensors as a tuple), with PyTorch's error for anything else."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for item in items:
        if not isinstance(item, Tensor):
            what = "inputs" if arg == "inputs" else "outputs of the user-provided function"
            kind = type(item) if is_tuple or arg == "inputs" else type(x)
            raise TypeError(
                f"The {what} given to {fn} must be either a Tensor or a tuple of Tensors but the "
                f"given {what} has type {kind}."
            )
    return is_tuple, items


def _grad_leaves(inputs, create_graph: bool) -> tuple:
    """Fresh leaves over the inputs' data that require grad (the inputs are left alone)."""
    return tuple(
        t if create_graph and t.requires_grad else make(t._data).requires_grad_(True)
        for t in inputs
    )


def _grads(outputs, inputs, seeds, create_graph: bool) -> tuple:
    """d(Σ seed·output)/d input for each input, zeros where an input was not used."""
    live = [(o, s) for o, s in zip(outputs, seeds, strict=True) if o.requires_grad]
    if not live:
        return tuple(make(np.zeros(np.shape(t._data), t._data.dtype)) for t in inputs)
    grads = grad(
        [o for o, _ in live],
        list(inputs),
        [s for _, s in live],
        retain_graph=True,
        create_graph=create_graph,
        allow_unused=True,
    )
    return tuple(
        g if g is not None else make(np.zeros(np.shape(t._data), t._data.dtype))
        for g, t in zip(grads, inputs, strict=True)
    )


_STRICT = "This is not allowed in strict mode."


def _check_strict(outputs, leaves, each_output: bool) -> None:
    """strict=True: every output computed differentiably from the inputs, and depending on
    each input (jacobian names the output, vjp and jvp speak of the outputs together)."""
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            raise RuntimeError(
                f"Output {i} of the user-provided function does not require gradients. The "
                "outputs must be computed in a differentiable manner from the input when running "
                "in strict mode."
            )
    groups = [[o] for o in outputs] if each_output else [list(outputs)]
    for i, group in enumerate(groups):
        seeds = [make(np.ones(np.shape(o._data), o._data.dtype)) for o in group]
        used = grad(group, list(leaves), seeds, retain_graph=True, allow_unused=True)
        for j, g in enumerate(used):
            if g is None:
                whose = f"Output {i} of the" if each_output else "The output of the"
                raise RuntimeError(
                    f"{whose} user-provided function is independent of input {j}. {_STRICT}"
                )


def _check_twice_differentiable(first) -> None:
    """strict=True for the Hessian: each input's gradient must still depend on the inputs."""
    for j, g in enumerate(first):
        if not g.requires_grad:
            raise RuntimeError(
                "While computing the hessian, found that the jacobian of the user-provided "
                f"function with respect to input {j} is independent of the input. {_STRICT} You "
                "should ensure that your function is twice differentiable and that the jacobian "
                "depends on the inputs (this would be violated by a linear function for example)."
            )


def _detached(items, create_graph: bool) -> tuple:
    return tuple(t if create_graph else make(t._data) for t in items)


def _seed(shape, index, dtype) -> Tensor:
    seed = np.zeros(int(np.prod(shape)), dtype)
    seed[index] = 1
    return make(seed.reshape(shape))


def jacobian(
    func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"
):
    """d outputs / d inputs: for one input and one output a tensor of shape out.shape +
    in.shape; otherwise tuples of them, indexed [output][input]."""
    in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    with enable_grad():
        leaves = _grad_leaves(inputs, create_graph)
        out_tuple, outputs = _as_tuple(func(*leaves), "outputs", "jacobian")
        if strict:
            _check_strict(outputs, leaves, each_output=True)
        blocks = []
        for out in outputs:
            rows = [[] for _ in leaves]
            for m in range(out.numel()):
                seed = _seed(out.shape, m, out._data.dtype)
                for row, g in zip(rows, _grads((out,), leaves, (seed,), create_graph), strict=True):
                    row.append(g)
            blocks.append(
                tuple(
                    _stack(row, out.shape, leaf.shape, create_graph)
                    for row, leaf in zip(rows, leaves, strict=True)
                )
            )
    return _shaped(blocks, in_tuple, out_tuple)


def _stack(row, out_shape, in_shape, create_graph):
    """The gradients of each output element, one per row, as a tensor out_shape + in_shape."""
    shape = tuple(out_shape) + tuple(in_shape)
    if create_graph:
        from ..engine.ops.shape import reshape, stack

        if not row:
            return make(np.zeros(shape, np.float32))
        return reshape(stack(row), shape)
    dtype = row[0]._data.dtype if row else np.float32
    return make(np.array([np.asarray(g._data) for g in row], dtype).reshape(shape))


def _shaped(blocks, in_tuple: bool, out_tuple: bool):
    if not out_tuple and not in_tuple:
        return blocks[0][0]
    if not out_tuple:
        return blocks[0]
    if not in_tuple:
        return tuple(b[0] for b in blocks)
    return tuple(blocks)


def hessian(
    func,
    inputs,
    create_graph=False,
    strict=False,
    vectorize=False,
    outer_jacobian_strategy="reverse-mode",
):
    """The matrix of second derivatives of a function returning one number."""
    in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def gradient(*xs):
        out = func(*xs)
        _check_scalar(out, "hessian")
        first = _grads((out,), xs, (make(np.ones((), out._data.dtype)),), True)
        if strict:
            _check_twice_differentiable(first)
        return first

    result = jacobian(
        gradient, inputs if in_tuple else inputs[0], create_graph=create_graph, strict=strict
    )
    return result if in_tuple else result[0]


def _check_scalar(out, fn: str) -> None:
    if not isinstance(out, Tensor):
        raise TypeError(
            f"The function given to {fn} should return a single Tensor, but it returned {type(out)}"
        )
    if out.numel() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn} should contain a single element"
        )


def _vector(v, outputs, fn: str) -> tuple:
    if v is None:
        if len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function returns a single "
                "Tensor with a single element."
            )
        return (make(np.ones(np.shape(outputs[0]._data), outputs[0]._data.dtype)),)
    _, vs = _as_tuple(v, "v", fn)
    return vs


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), vᵀ · J): the outputs and the vector-Jacobian product."""
    in_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
    with enable_grad():
        leaves = _grad_leaves(inputs, create_graph)
        out_tuple, outputs = _as_tuple(func(*leaves), "outputs", "vjp")
        if strict:
            _check_strict(outputs, leaves, each_output=False)
        vs = _vector(v, outputs, "vjp")
        grads = _grads(outputs, leaves, vs, create_graph)
    outs = _detached(outputs, create_graph)
    return (outs if out_tuple else outs[0]), (grads if in_tuple else grads[0])


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J · v), by the double-vjp trick PyTorch uses."""
    _, inputs = _as_tuple(inputs, "inputs", "jvp")
    vs = (
        (make(np.ones(np.shape(inputs[0]._data), inputs[0]._data.dtype)),)
        if v is None
        else _as_tuple(v, "v", "jvp")[1]
    )
    with enable_grad():
        leaves = _grad_leaves(inputs, True)
        out_tuple, outputs = _as_tuple(func(*leaves), "outputs", "jvp")
        if strict:
            _check_strict(outputs, leaves, each_output=False)
        dummies = tuple(
            make(np.zeros(np.shape(o._data), o._data.dtype)).requires_grad_(True) for o in outputs
        )
        first = _grads(outputs, leaves, dummies, True)
        products = _grads(first, dummies, vs, create_graph)
    outs = _detached(outputs, create_graph)
    return (outs if out_tuple else outs[0]), (products if out_tuple else products[0])


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), vᵀ · H) for a function returning one number."""
    return _hessian_product("vhp", func, inputs, v, create_graph, strict)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H · v); the Hessian is symmetric, so this is vhp."""
    return _hessian_product("hvp", func, inputs, v, create_graph, strict)


def _hessian_product(fn, func, inputs, v, create_graph, strict):
    in_tuple, inputs = _as_tuple(inputs, "inputs", fn)
    with enable_grad():
        leaves = _grad_leaves(inputs, True)
        out = func(*leaves)
        _check_scalar(out, fn)
        if v is None and (len(leaves) != 1 or leaves[0].numel() != 1):
            raise RuntimeError(
                "The vector v can only be None if the input to the user-provided function is a "
                "single Tensor with a single element."
            )
        vs = _as_tuple(v, "v", fn)[1] if v is not None else (make(np.ones_like(leaves[0]._data)),)
        first = _grads((out,), leaves, (make(np.ones((), out._data.dtype)),), True)
        if strict:
            _check_twice_differentiable(first)
        products = _grads(first, leaves, vs, create_graph)
    value = out if create_graph else make(out._data)
    return value, (products if in_tuple else products[0])
