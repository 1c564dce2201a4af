"""zero_, fill_ and masked_fill record what torch records, so the overwritten values get no
gradient and a tensor fill value gets its sum; rsub and the reflected bitwise operators."""

import pytest

import autoviz as torch


def test_zero_of_a_tracked_tensor_sends_no_gradient_to_the_old_values():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = a * 2
    h.zero_()
    assert type(h.grad_fn).__name__ == "ZeroBackward0" and h._version == 1
    (h + a).sum().backward()
    assert a.grad.tolist() == [1.0, 1.0, 1.0]  # through `+ a` only: h's path is cut


def test_fill_with_a_number_and_with_a_tensor():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.fill_(5.0)
    assert type(h.grad_fn).__name__ == "FillBackward2" and h.tolist() == [5.0, 5.0]
    v = torch.tensor(2.0, requires_grad=True)
    k = (a * 1).fill_(v)
    assert type(k.grad_fn).__name__ == "FillBackward3"
    (k * torch.tensor([1.0, 4.0])).sum().backward()
    assert v.grad.item() == 5.0 and a.grad.tolist() == [0.0, 0.0]


def test_untracked_fills_stay_plain_and_leaves_are_refused():
    g = torch.ones(2)
    assert g.zero_() is g and g.grad_fn is None and g.tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        torch.ones(2, requires_grad=True).zero_()
    with torch.no_grad():
        w = torch.ones(2, requires_grad=True)
        w.fill_(3.0)
    assert w.tolist() == [3.0, 3.0]


def test_masked_fill_with_a_tensor_value_sends_it_the_masked_sum():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = torch.tensor(-1.0, requires_grad=True)
    mask = torch.tensor([True, False, True])
    z = torch.masked_fill(x, mask, v)
    assert type(z.grad_fn).__name__ == "MaskedFillBackward1" and z.tolist() == [-1.0, 2.0, -1.0]
    (z * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert v.grad.item() == 4.0 and x.grad.tolist() == [0.0, 2.0, 0.0]
    with pytest.raises(RuntimeError, match=r"only supports a 0-dimensional value tensor, but got"):
        x.masked_fill(mask, torch.ones(1))


def test_rsub_and_reflected_operators():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([5.0, 5.0], requires_grad=True)
    z = torch.rsub(x, y, alpha=2)
    assert z.tolist() == [3.0, 1.0] and type(z.grad_fn).__name__ == "RsubBackward0"
    z.sum().backward()
    assert x.grad.tolist() == [-2.0, -2.0] and y.grad.tolist() == [1.0, 1.0]
    assert type((3 - x).grad_fn).__name__ == "RsubBackward1"
    assert (2 | torch.tensor([1, 4])).tolist() == [3, 6]
    assert (6 & torch.tensor([3])).tolist() == [2] and (1 ^ torch.tensor([3])).tolist() == [2]
    with pytest.raises(RuntimeError, match=r"^size \{\[10, 10\]\} is not expandable to size"):
        torch.zeros(10, 5, 10).sum_to_size(10, 10)
    assert torch.tensor(3.0).unfold(0, 1, 1).shape == (1,)
