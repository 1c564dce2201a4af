"""Errors and warnings carry PyTorch's type and text (compared with real torch when installed)."""

import re
import subprocess
import sys
import warnings

import pytest

import autoviz


def _x(t):
    return t.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)


def _twice(t):
    x = _x(t)
    y = (x * x).sum()
    y.backward()
    y.backward()


def _no_grad_backward(t):
    x = _x(t)
    with t.no_grad():
        y = (x * 2).sum()
    y.backward()


def _iadd(t):
    x = _x(t)
    x += 1


def _int_idiv(t):
    i = t.tensor([1, 2])
    i /= 2


def _int_iadd_float(t):
    i = t.tensor([1, 2])
    i += 0.5


def _set_grad(value):
    def assign(t):
        _x(t).grad = value(t)

    return assign


# (name, what raises it, exception type, PyTorch's text: ours must start with it)
CASES = [
    (
        "a grad of another size assigned",
        _set_grad(lambda t: t.ones(3)),
        RuntimeError,
        "attempting to assign a gradient of size '[3]' to a tensor of size '[2, 3]'. Please "
        "ensure that the gradient and the tensor are the same size",
    ),
    (
        "a grad of another dtype assigned",
        _set_grad(lambda t: t.ones(2, 3, dtype=t.float64)),
        RuntimeError,
        "attempting to assign a gradient with dtype 'double' to a tensor with grad_dtype 'Float'.",
    ),
    (
        "a number assigned as grad",
        _set_grad(lambda t: 3),
        TypeError,
        "assigned grad expected to be a Tensor or None but got grad of type int",
    ),
    (
        "second backward through a freed graph",
        _twice,
        RuntimeError,
        "Trying to backward through the graph a second time (or directly access saved tensors "
        "after they have already been freed).",
    ),
    (
        "implicit gradient for a non-scalar output",
        lambda t: (_x(t) * 2).backward(),
        RuntimeError,
        "grad can be implicitly created only for scalar outputs",
    ),
    (
        "backward on a tensor that does not require grad",
        lambda t: t.tensor(1.0).backward(),
        RuntimeError,
        "element 0 of tensors does not require grad and does not have a grad_fn",
    ),
    (
        "backward on a result of constants",
        lambda t: (t.ones(2) * 2).sum().backward(),
        RuntimeError,
        "element 0 of tensors does not require grad and does not have a grad_fn",
    ),
    (
        "backward on a result computed under no_grad",
        _no_grad_backward,
        RuntimeError,
        "element 0 of tensors does not require grad and does not have a grad_fn",
    ),
    (
        "add_ on a leaf that requires grad",
        lambda t: _x(t).add_(1),
        RuntimeError,
        "a leaf Variable that requires grad is being used in an in-place operation.",
    ),
    (
        "+= on a leaf that requires grad",
        _iadd,
        RuntimeError,
        "a leaf Variable that requires grad is being used in an in-place operation.",
    ),
    (
        "zero_ on a leaf that requires grad",
        lambda t: _x(t).zero_(),
        RuntimeError,
        "a leaf Variable that requires grad is being used in an in-place operation.",
    ),
    (
        "item assignment on a leaf that requires grad",
        lambda t: _x(t).__setitem__(0, 1.0),
        RuntimeError,
        "a view of a leaf Variable that requires grad is being used in an in-place operation.",
    ),
    (
        "broadcast of (2, 3) and (2, 4)",
        lambda t: t.ones(2, 3) + t.ones(2, 4),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    ),
    (
        "broadcast of (2, 3, 4) and (5, 4)",
        lambda t: t.ones(2, 3, 4) * t.ones(5, 4),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1",
    ),
    (
        "matmul (2x3) @ (4x5)",
        lambda t: t.ones(2, 3) @ t.ones(4, 5),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)",
    ),
    (
        "matmul of two vectors of different lengths",
        lambda t: t.ones(3) @ t.ones(4),
        RuntimeError,
        "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of "
        "elements, but got 3 and 4 elements respectively",
    ),
    (
        "matmul matrix @ vector",
        lambda t: t.ones(2, 3) @ t.ones(4),
        RuntimeError,
        "size mismatch, got input (2), mat (2x3), vec (4)",
    ),
    (
        "matmul vector @ matrix",
        lambda t: t.ones(3) @ t.ones(4, 5),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)",
    ),
    (
        "matmul batch @ matrix (folded)",
        lambda t: t.ones(2, 2, 3) @ t.ones(4, 5),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)",
    ),
    (
        "matmul batch @ batch",
        lambda t: t.ones(2, 2, 3) @ t.ones(2, 4, 5),
        RuntimeError,
        "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].",
    ),
    (
        "matmul with batch sizes that do not broadcast",
        lambda t: t.ones(2, 2, 3) @ t.ones(3, 3, 5),
        RuntimeError,
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
    ),
    (
        "matmul of a 0-d tensor",
        lambda t: t.tensor(2.0) @ t.ones(3),
        RuntimeError,
        "both arguments to matmul need to be at least 1D, but they are 0D and 1D",
    ),
    (
        "matmul of int and float matrices",
        lambda t: t.tensor([[1, 2]]) @ t.ones(2, 1),
        RuntimeError,
        "expected m1 and m2 to have the same dtype, but got: long int != float",
    ),
    (
        "matmul of float and double matrices",
        lambda t: t.ones(2, 2) @ t.ones(2, 2, dtype=t.float64),
        RuntimeError,
        "expected m1 and m2 to have the same dtype, but got: float != double",
    ),
    (
        "dot of int and float vectors",
        lambda t: t.tensor([1, 2]) @ t.ones(2),
        RuntimeError,
        "dot : expected both vectors to have same dtype, but found Long and Float",
    ),
    (
        "torch.mm of a vector",
        lambda t: t.mm(t.ones(3), t.ones(3, 2)),
        RuntimeError,
        "self must be a matrix",
    ),
    (
        "numpy() on a tensor that requires grad",
        lambda t: _x(t).numpy(),
        RuntimeError,
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
    ),
    (
        "item() of six elements",
        lambda t: _x(t).item(),
        RuntimeError,
        "a Tensor with 6 elements cannot be converted to Scalar",
    ),
    (
        "float() of six elements",
        lambda t: float(t.ones(2, 3)),
        ValueError,
        "only one element tensors can be converted to Python scalars",
    ),
    (
        "bool() of two elements",
        lambda t: bool(t.ones(2)),
        RuntimeError,
        "Boolean value of Tensor with more than one value is ambiguous",
    ),
    ("len() of a 0-d tensor", lambda t: len(t.tensor(1.0)), TypeError, "len() of a 0-d tensor"),
    (
        "requires_grad=True on an int tensor",
        lambda t: t.tensor([1, 2], requires_grad=True),
        RuntimeError,
        "Only Tensors of floating point and complex dtype can require gradients",
    ),
    (
        "requires_grad=True on int zeros",
        lambda t: t.zeros(2, dtype=t.int64, requires_grad=True),
        RuntimeError,
        "Only Tensors of floating point and complex dtype can require gradients",
    ),
    (
        "requires_grad_() on an int tensor",
        lambda t: t.tensor([1, 2]).requires_grad_(),
        RuntimeError,
        "only Tensors of floating point dtype can require gradients",
    ),
    (
        "requires_grad_(False) on a non-leaf",
        lambda t: (_x(t) * 2).requires_grad_(False),
        RuntimeError,
        "you can only change requires_grad flags of leaf variables. If you want to use a computed "
        "variable in a subgraph that doesn't require differentiation use var_no_grad = "
        "var.detach().",
    ),
    (
        "view() of a transposed tensor",
        lambda t: _x(t).t().view(6),
        RuntimeError,
        "view size is not compatible with input tensor's size and stride (at least one dimension "
        "spans across two contiguous subspaces). Use .reshape(...) instead.",
    ),
    (
        "reshape to a size that does not fit",
        lambda t: _x(t).reshape(4),
        RuntimeError,
        "shape '[4]' is invalid for input of size 6",
    ),
    (
        "view with two -1",
        lambda t: _x(t).view(-1, -1),
        RuntimeError,
        "only one dimension can be inferred",
    ),
    (
        "expand to a different size",
        lambda t: t.ones(3, 1).expand(2, 4),
        RuntimeError,
        "The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
        "dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 1]",
    ),
    (
        "backward with a gradient of the wrong shape",
        lambda t: (_x(t) * 2).backward(t.ones(3)),
        RuntimeError,
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a "
        "shape of torch.Size([2, 3]).",
    ),
    (
        "autograd.grad for an input the output does not use",
        lambda t: t.autograd.grad((_x(t) * 2).sum(), [_x(t)]),
        RuntimeError,
        "The differentiated Tensor at index 0 appears to not have been used in the graph. Set "
        "allow_unused=True if this is the desired behavior.",
    ),
    (
        "autograd.grad for an input that does not require grad",
        lambda t: t.autograd.grad((_x(t) * 2).sum(), [t.ones(2)]),
        RuntimeError,
        "One of the differentiated Tensors does not require grad",
    ),
    (
        "retain_grad on a tensor that does not require grad",
        lambda t: t.ones(2).retain_grad(),
        RuntimeError,
        "can't retain_grad on Tensor that has requires_grad=False",
    ),
    (
        "register_hook on a tensor that does not require grad",
        lambda t: t.ones(2).register_hook(print),
        RuntimeError,
        "cannot register a hook on a tensor that doesn't require gradient",
    ),
    (
        "index past the end",
        lambda t: _x(t)[2],
        IndexError,
        "index 2 is out of bounds for dimension 0 with size 2",
    ),
    (
        "index past the end of dim 1",
        lambda t: _x(t)[0, 5],
        IndexError,
        "index 5 is out of bounds for dimension 1 with size 3",
    ),
    (
        "too many indices",
        lambda t: _x(t)[0, 0, 0],
        IndexError,
        "too many indices for tensor of dimension 2",
    ),
    ("negative slice step", lambda t: _x(t)[::-1], ValueError, "step must be greater than zero"),
    (
        "sum over a dim out of range",
        lambda t: _x(t).sum(2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        "sum over a repeated dim",
        lambda t: _x(t).sum((0, -2)),
        RuntimeError,
        "dim 0 appears multiple times in the list of dims",
    ),
    (
        "softmax over a dim out of range",
        lambda t: _x(t).softmax(2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        "max over a dim out of range",
        lambda t: _x(t).max(-3),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got -3)",
    ),
    (
        "unsqueeze at a dim out of range",
        lambda t: _x(t).unsqueeze(3),
        IndexError,
        "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
    ),
    (
        "squeeze a dim out of range",
        lambda t: _x(t).squeeze(2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        "transpose a dim out of range",
        lambda t: _x(t).transpose(0, 2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        "size of a dim out of range",
        lambda t: _x(t).size(2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        "permute with too few dims",
        lambda t: _x(t).permute(0),
        RuntimeError,
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length "
        "of the desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1",
    ),
    (
        "permute with a repeated dim",
        lambda t: _x(t).permute(0, 0),
        RuntimeError,
        "permute(): duplicate dims are not allowed.",
    ),
    (
        "t() of a 3-D tensor",
        lambda t: t.ones(2, 3, 4).t(),
        RuntimeError,
        "t() expects a tensor with <= 2 dimensions, but self is 3D",
    ),
    (
        "mT of a vector",
        lambda t: t.ones(2).mT,
        RuntimeError,
        "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.",
    ),
    (
        "mean of an int tensor",
        lambda t: t.tensor([1, 2]).mean(),
        RuntimeError,
        "mean(): could not infer output dtype. Input dtype must be either a floating point or "
        "complex dtype. Got: Long",
    ),
    (
        "clamp without bounds",
        lambda t: t.clamp(_x(t)),
        RuntimeError,
        "torch.clamp: At least one of 'min' or 'max' must not be None",
    ),
    (
        "cat of tensors that differ off the cat dim",
        lambda t: t.cat([t.ones(2, 3), t.ones(2, 4)]),
        RuntimeError,
        "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for "
        "tensor number 1 in the list.",
    ),
    (
        "cat of tensors of different ranks",
        lambda t: t.cat([t.ones(2, 3), t.ones(3)]),
        RuntimeError,
        "Tensors must have same number of dimensions: got 2 and 1",
    ),
    (
        "stack of tensors of different shapes",
        lambda t: t.stack([t.ones(2, 3), t.ones(2, 4)]),
        RuntimeError,
        "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 4] at "
        "entry 1",
    ),
    (
        "tensor() of ragged lists",
        lambda t: t.tensor([[1, 2], [3]]),
        ValueError,
        "expected sequence of length 2 at dim 1 (got 1)",
    ),
    (
        "where with an int condition",
        lambda t: t.where(t.tensor([1, 0]), t.ones(2), t.zeros(2)),
        RuntimeError,
        "where expected condition to be a boolean tensor, but got a tensor with dtype Long",
    ),
    (
        "/= on an int tensor",
        _int_idiv,
        RuntimeError,
        "result type Float can't be cast to the desired output type Long",
    ),
    (
        "+= 0.5 on an int tensor",
        _int_iadd_float,
        RuntimeError,
        "result type Float can't be cast to the desired output type Long",
    ),
]

IDS = [name for name, *_ in CASES]


def _raised(module, action, kind) -> str:
    with pytest.raises(kind) as info:
        action(module)
    return str(info.value)


@pytest.mark.parametrize(("name", "action", "kind", "text"), CASES, ids=IDS)
def test_error_has_pytorch_type_and_text(name, action, kind, text):
    """autoviz raises PyTorch's exception type with PyTorch's text (op and shapes may follow)."""
    assert _raised(autoviz, action, kind).startswith(text)


@pytest.mark.parametrize(("name", "action", "kind", "text"), CASES, ids=IDS)
def test_error_text_is_what_torch_says(name, action, kind, text):
    """Real torch raises the same type, its message is `text`, and ours starts with all of it."""
    torch = pytest.importorskip("torch")
    theirs = _raised(torch, action, kind)
    assert theirs.startswith(text)
    assert _raised(autoviz, action, kind).startswith(theirs)


# -- warnings --------------------------------------------------------------------------------------
_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)")


def _non_leaf_grad(t):
    x = _x(t)
    y = x * 2
    y.sum().backward()
    return y.grad


NON_LEAF_WARNING = (
    "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
    "Its .grad attribute won't be populated during autograd.backward(). If you indeed want the "
    ".grad field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf "
    "Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)


def _warned(module, action) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        action(module)
    return [f"{w.category.__name__}: {_TRIGGERED.sub('', str(w.message))}" for w in caught]


def test_non_leaf_grad_warning_has_pytorch_text():
    """Reading .grad of a non-leaf gives PyTorch's UserWarning, every time, and None."""
    assert _warned(autoviz, _non_leaf_grad) == [NON_LEAF_WARNING]
    with pytest.warns(UserWarning, match="not a leaf Tensor is being accessed"):
        assert _non_leaf_grad(autoviz) is None


def test_non_leaf_grad_warning_is_what_torch_says():
    """Real torch gives the same warning, once its note on where in its C++ it came from is cut."""
    torch = pytest.importorskip("torch")
    assert _warned(torch, _non_leaf_grad) == [NON_LEAF_WARNING]


# PyTorch gives these two once per process: they are checked in a fresh one, for both libraries.
ONCE_SCRIPT = """
import re, sys, warnings
torch = __import__(sys.argv[1])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    x = torch.tensor(2.5, requires_grad=True)
    with torch.no_grad():  # no warning while grad mode is off (an optimizer's step, say)
        print(float(x), torch.tensor([x, x]).tolist(), len(caught))
    print(float(x), float(x * 2), float(x.detach()))
    vector, cube, matrix = torch.ones(3), torch.ones(2, 3, 4), torch.ones(2, 2)
    print(tuple(vector.T.shape), tuple(cube.T.shape), matrix.T.shape)
for w in caught:
    print(w.category.__name__, re.sub(r" \\(Triggered internally at [^)]*\\)", "", str(w.message)))
"""
ONCE_OUTPUT = [
    "2.5 [2.5, 2.5] 0",
    "2.5 5.0 2.5",
    "(3,) (4, 3, 2) torch.Size([2, 2])",
    "UserWarning Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
    "behavior.",
    "Consider using tensor.detach() first.",
    "UserWarning The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
    "deprecated and it will throw an error in a future release. Consider `x.mT` to transpose "
    "batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
    "dimensions of a tensor.",
]


def _once(module: str) -> list[str]:
    run = subprocess.run(
        [sys.executable, "-c", ONCE_SCRIPT, module], capture_output=True, text=True, check=True
    )
    return run.stdout.splitlines()


def test_once_per_process_warnings():
    """float() of a tensor that requires grad, and x.T of a non-matrix, warn once per process;
    the first warns only while grad mode is on."""
    assert _once("autoviz") == ONCE_OUTPUT


def test_once_per_process_warnings_are_what_torch_says():
    """Real torch, in a fresh process, gives the same two warnings once each."""
    pytest.importorskip("torch")
    assert _once("torch") == ONCE_OUTPUT


NAN_SCRIPT = """
import autoviz as torch
x = torch.tensor([0.0, -1.0], requires_grad=True)
y = x.log() + x.sqrt() + 1 / x + x ** 0.5 + (x * 1e30).exp() * 1e30
y.sum().backward()
print(x.log(), x.grad)
"""


def test_nan_and_inf_results_give_no_numpy_warnings():
    """A script computing log(0), sqrt(-1), 1/0 prints inf and nan and nothing on stderr, as
    with PyTorch (numpy alone would warn "invalid value encountered in log")."""
    run = subprocess.run(
        [sys.executable, "-c", NAN_SCRIPT], capture_output=True, text=True, check=True
    )
    assert run.stderr == ""
    assert run.stdout == "tensor([-inf, nan], grad_fn=<LogBackward0>) tensor([nan, nan])\n"


# A CNN lesson's pooling and convolution mistakes: each case runs under both libraries (`lib`
# is the module).
CNN_MISTAKES = {
    "kernel of 0": lambda lib: lib.nn.functional.max_pool1d(lib.ones(2, 3, 8), 0),
    "1-d stride of 0": lambda lib: lib.nn.functional.max_pool1d(lib.ones(2, 3, 8), 2, stride=0),
    "1-d padding over half": lambda lib: lib.nn.functional.max_pool1d(
        lib.ones(2, 3, 8), 2, padding=4
    ),
    "1-d window past the input": lambda lib: lib.nn.functional.max_pool1d(lib.ones(2, 2, 2), 5),
    "1-d empty length": lambda lib: lib.nn.functional.max_pool1d(lib.ones(1, 10, 0), 1),
    "negative padding": lambda lib: lib.nn.functional.max_pool2d(
        lib.ones(1, 2, 6, 6), 2, padding=-1
    ),
    "dilation of 0": lambda lib: lib.nn.functional.max_pool2d(lib.ones(1, 2, 6, 6), 2, dilation=0),
    "window past the input": lambda lib: lib.nn.MaxPool2d(7)(lib.ones(1, 2, 6, 6)),
    "a matrix, not an image": lambda lib: lib.nn.MaxPool2d(2)(lib.ones(3, 3)),
    "empty channels": lambda lib: lib.nn.functional.max_pool2d(lib.ones(1, 0, 10), 1),
    "one image of no channels": lambda lib: lib.nn.functional.max_pool2d(lib.ones(0, 4, 4), 2),
    "avg of no channels": lambda lib: lib.nn.functional.avg_pool2d(lib.ones(0, 4, 4), 2),
    "avg stride of 0": lambda lib: lib.nn.functional.avg_pool2d(lib.ones(1, 2, 6, 6), 2, stride=0),
    "adaptive size of a matrix": lambda lib: lib.nn.AdaptiveAvgPool2d((2, 2))(lib.ones(2, 2)),
    "adaptive negative size": lambda lib: lib.nn.functional.adaptive_avg_pool2d(
        lib.ones(1, 1, 1, 1), (-1, 0)
    ),
    "adaptive max negative size": lambda lib: lib.nn.functional.adaptive_max_pool2d(
        lib.ones(1, 1, 1, 1), (-1, 0)
    ),
    "adaptive 1-d of a vector": lambda lib: lib.nn.functional.adaptive_avg_pool1d(lib.ones(2), 2),
    "conv weight of 2 dims": lambda lib: lib.nn.functional.conv1d(
        lib.ones(1, 1, 4), lib.ones(1, 2)
    ),
    "conv weight of too many dims": lambda lib: lib.nn.functional.conv1d(
        lib.ones(1, 1, 4), lib.ones(1, 1, 2, 2)
    ),
    "conv groups over the filters": lambda lib: lib.nn.functional.conv2d(
        lib.ones(1, 2, 4, 4), lib.ones(2, 2, 1, 1), groups=3
    ),
    "conv bias of another dtype": lambda lib: lib.nn.functional.conv2d(
        lib.ones(1, 1, 4, 4), lib.ones(1, 1, 2, 2), lib.ones(1, dtype=lib.float64)
    ),
    "conv input of other channels": lambda lib: lib.nn.Conv2d(3, 4, 3)(lib.ones(1, 1, 5, 5)),
    "conv kernel past the input": lambda lib: lib.nn.Conv2d(1, 4, 7)(lib.ones(1, 1, 5, 5)),
}


def _outcome(action, lib) -> tuple:
    try:
        result = action(lib)
    except Exception as error:  # the error is what is compared
        return type(error).__name__, str(error)
    return "no error", tuple(result.shape)


@pytest.mark.parametrize("case", sorted(CNN_MISTAKES))
def test_cnn_mistakes_get_torchs_error(case):
    """Pooling or convolving with a bad window, weight or input raises torch's own exception
    and message."""
    torch = pytest.importorskip("torch")
    action = CNN_MISTAKES[case]
    assert _outcome(action, autoviz) == _outcome(action, torch)


def test_an_empty_batch_pools_to_an_empty_batch():
    """A batch of no images pools as torch pools it: to a batch of none, of the right shape."""
    f = autoviz.nn.functional
    assert f.max_pool2d(autoviz.ones(0, 1, 4, 4), 2).shape == (0, 1, 2, 2)
    assert f.max_pool1d(autoviz.ones(0, 1, 49), 2).shape == (0, 1, 24)
    assert f.avg_pool2d(autoviz.ones(0, 1, 4, 4), 2).shape == (0, 1, 2, 2)


# Layer arguments out of range: each case runs under both libraries (`lib` is the module).
LAYER_MISTAKES = {
    "rms_norm of no dims": lambda lib: lib.nn.functional.rms_norm(lib.ones(1, 2, 3), ()),
    "rms_norm weight of another shape": lambda lib: lib.nn.functional.rms_norm(
        lib.ones(1, 2, 3), (2, 3), lib.ones(2)
    ),
    "rms_norm shape not the input's end": lambda lib: lib.nn.RMSNorm([2, 2])(lib.ones(2, 2, 3)),
    "rrelu bounds the wrong way": lambda lib: lib.nn.functional.rrelu(lib.ones(2), 0.3, 0.1),
    "softshrink's negative lambda": lambda lib: lib.nn.Softshrink(-0.5)(lib.ones(1)),
    "triplet margin of 0": lambda lib: lib.nn.TripletMarginLoss(margin=0.0)(
        lib.ones(3, 4), lib.ones(3, 4), lib.ones(3, 4)
    ),
    "triplet of mixed dims": lambda lib: lib.nn.functional.triplet_margin_loss(
        lib.ones(3), lib.ones(3, 4), lib.ones(3, 4)
    ),
}


@pytest.mark.parametrize("case", sorted(LAYER_MISTAKES))
def test_layer_mistakes_get_torchs_error(case):
    """A layer's argument out of range raises torch's own exception and message."""
    torch = pytest.importorskip("torch")
    action = LAYER_MISTAKES[case]
    assert _outcome(action, autoviz) == _outcome(action, torch)
