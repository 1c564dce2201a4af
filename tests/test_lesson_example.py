"""The lesson example z = w * x + b: values, gradients, grad_fn objects and printing."""

import pytest

import autoviz
from autoviz.engine import AccumulateGrad
from conftest import lesson_example


def test_forward_values_and_printing():
    t = lesson_example()
    assert t["y"].item() == 6.0
    assert t["z"].item() == 7.0
    assert f"Result z: {t['z']}" == "Result z: 7.0"
    assert repr(t["z"]) == "tensor(7., grad_fn=<AddBackward0>)"
    assert repr(t["y"]) == "tensor(6., grad_fn=<MulBackward0>)"
    assert repr(t["x"]) == "tensor(2., requires_grad=True)"


def test_backward_gives_the_hand_computed_gradients():
    t = lesson_example()
    t["z"].backward()
    assert str(t["x"].grad) == "tensor(3.)"  # dz/dx = w
    assert str(t["w"].grad) == "tensor(2.)"  # dz/dw = x
    assert str(t["b"].grad) == "tensor(1.)"  # dz/db = 1


def test_grad_fn_objects_link_back_to_the_leaves():
    t = lesson_example()
    add = t["z"].grad_fn
    assert add.name() == type(add).__name__ == "AddBackward0"
    (mul, i), (acc_b, j) = add.next_functions
    assert (i, j) == (0, 0)
    assert mul is t["y"].grad_fn and mul.name() == "MulBackward0"
    assert isinstance(acc_b, AccumulateGrad) and acc_b.variable is t["b"]
    assert [fn.variable for fn, _ in mul.next_functions] == [t["w"], t["x"]]
    assert repr(add).startswith("<AddBackward0 object at 0x")


def test_leaf_flags():
    t = lesson_example()
    assert t["x"].is_leaf and t["x"].requires_grad and t["x"].grad_fn is None
    assert not t["y"].is_leaf and t["y"].requires_grad
    plain = autoviz.tensor(5.0)
    assert plain.is_leaf and not plain.requires_grad


def test_non_leaf_grad_is_none_with_pytorch_warning():
    t = lesson_example()
    t["z"].backward()
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert t["y"].grad is None


def test_second_backward_through_freed_graph_raises_pytorch_error():
    t = lesson_example()
    t["z"].backward()
    with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second time"):
        t["z"].backward()


def test_backward_is_iterative_on_a_long_chain():
    x = autoviz.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(20_000):  # far past Python's recursion limit
        y = y * 1.0 + 0.0
    y.backward()
    assert x.grad.item() == 1.0
