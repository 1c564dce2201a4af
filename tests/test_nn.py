"""autoviz.nn against real PyTorch: registration, reprs, graphs, values, gradients, training."""

import copy
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import autoviz as av
from autoviz import nn
from autoviz.nn import functional as F


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def to_torch(t, torch, requires_grad=False):
    return torch.tensor(np.array(t._data), requires_grad=requires_grad)


def copy_weights(ours, theirs, torch) -> None:
    """Give the torch module the same parameter values as ours (names must match)."""
    with torch.no_grad():
        for (name, p), (tname, tp) in zip(
            ours.named_parameters(), theirs.named_parameters(), strict=True
        ):
            assert name == tname
            tp.copy_(torch.from_numpy(np.array(p._data)))


def graph_names(fn):
    """The backward graph below `fn` as nested (name, children) tuples; None for no edge."""
    if fn is None:
        return None
    return (fn.name(), tuple(graph_names(f) for f, _ in fn.next_functions))


def mlp(seed=0, out=3):
    av.manual_seed(seed)
    return nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, out))


def torch_mlp(torch, out=3):
    return torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.ReLU(), torch.nn.Linear(5, out))


# -- Parameter -------------------------------------------------------------------------------
def test_parameter_repr_matches_torch(torch):
    for requires_grad in (True, False):
        ours = nn.Parameter(av.tensor([1.0, 2.5]), requires_grad=requires_grad)
        theirs = torch.nn.Parameter(torch.tensor([1.0, 2.5]), requires_grad=requires_grad)
        assert repr(ours) == repr(theirs)
    assert repr(nn.Parameter(av.zeros(2, 2))) == repr(torch.nn.Parameter(torch.zeros(2, 2)))


def test_parameter_is_a_leaf_sharing_memory_and_ops_return_plain_tensors():
    data = av.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    assert p.is_leaf and p.requires_grad and isinstance(p, av.Tensor)
    data._storage()[0] = 7.0  # PyTorch's Parameter shares storage with the tensor it wraps
    assert p.tolist() == [7.0, 2.0]
    y = av.tensor([1.0, 1.0]) + p * 2
    assert type(y) is av.Tensor and type(p.data) is av.Tensor
    assert y.grad_fn.name() == "AddBackward0"
    assert graph_names(y.grad_fn)[1][0] is None  # the constant stays first, as written
    y.sum().backward()
    assert p.grad.tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError, match="floating point"):
        nn.Parameter(av.tensor([1, 2]))


# -- Module registration and naming ----------------------------------------------------------
def make_net(lib, ones):
    """The same small model class, written against autoviz.nn or torch.nn."""

    class Net(lib.Module):
        def __init__(self):
            super().__init__()
            self.net = lib.Sequential(lib.Linear(4, 3), lib.ReLU(), lib.Linear(3, 2, bias=False))
            self.scale = lib.Parameter(ones(1))
            self.head = lib.Tanh()

        def forward(self, x):
            return self.head(self.net(x)) * self.scale

    return Net()


def test_registration_names_match_torch(torch):
    ours, theirs = make_net(nn, av.ones), make_net(torch.nn, torch.ones)
    names = lambda pairs: [n for n, _ in pairs]  # noqa: E731
    assert names(ours.named_parameters()) == names(theirs.named_parameters())
    assert names(ours.named_parameters()) == ["scale", "net.0.weight", "net.0.bias", "net.2.weight"]
    assert names(ours.named_modules()) == names(theirs.named_modules())
    assert names(ours.named_children()) == ["net", "head"]
    assert [type(m).__name__ for m in ours.children()] == ["Sequential", "Tanh"]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert len(list(ours.parameters())) == 4
    assert ours.net[0].weight is ours.net[0]._parameters["weight"]
    assert ours(av.ones(2, 4)).shape == av.Size([2, 2])


def test_shared_module_is_listed_once():
    layer = nn.Linear(2, 2)
    model = nn.Sequential(layer, nn.ReLU(), layer)
    assert [n for n, _ in model.named_parameters()] == ["0.weight", "0.bias"]
    assert list(model.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_reassignment_and_deletion():
    model = nn.Linear(2, 2)
    model.weight = nn.Parameter(av.zeros(2, 2))
    assert [n for n, _ in model.named_parameters()] == ["weight", "bias"]  # order kept
    model.extra = nn.ReLU()
    assert list(dict(model.named_children())) == ["extra"]
    del model.extra
    assert list(model.children()) == []
    model.bias = None
    assert [n for n, _ in model.named_parameters()] == ["weight"]
    assert "weight" in dir(model)


def test_assignment_errors_match_torch(torch):
    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(av.zeros(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__"):
        Early()
    model = nn.Linear(2, 2)
    with pytest.raises(TypeError) as ours:
        model.weight = av.zeros(2, 2)
    with pytest.raises(TypeError) as theirs:
        torch.nn.Linear(2, 2).weight = torch.zeros(2, 2)
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(NotImplementedError) as ours:
        nn.Module()(1)
    with pytest.raises(NotImplementedError) as theirs:
        torch.nn.Module()(1)
    assert str(ours.value) == str(theirs.value)


def test_train_eval_and_zero_grad():
    model = mlp()
    assert model.training and model[0].training
    assert model.eval() is model
    assert not model.training and not model[2].training
    model.train()
    assert all(m.training for m in model.modules())
    model(av.randn(2, 4)).sum().backward()
    assert all(p.grad is not None for p in model.parameters())
    model.zero_grad(set_to_none=False)
    assert all(not np.any(p.grad._data) for p in model.parameters())
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_sequential_and_modulelist_containers():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[-1], nn.Linear)
    assert [type(m).__name__ for m in seq] == ["Linear", "ReLU", "Linear"]
    tail = seq[1:]
    assert list(tail._modules) == ["1", "2"] and tail[0] is seq[1]
    seq.append(nn.Sigmoid())
    assert list(seq._modules) == ["0", "1", "2", "3"]
    with pytest.raises(IndexError, match="index 4 is out of range"):
        seq[4]
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    holder = nn.Module()
    holder.layers = layers
    assert len(list(holder.parameters())) == 6
    assert [n for n, _ in holder.named_parameters()][:2] == ["layers.0.weight", "layers.0.bias"]


# -- repr --------------------------------------------------------------------------------------
def test_module_reprs_match_torch(torch):
    tnn = torch.nn

    def custom(lib):
        class Custom(lib.Module):
            def __init__(self):
                super().__init__()
                self.fc = lib.Linear(2, 3)
                self.body = lib.Sequential(lib.Linear(3, 3), lib.Tanh())

            def extra_repr(self):
                return "scale=2"

        return Custom()

    pairs = [
        (nn.Sequential(nn.Linear(4, 3), nn.ReLU()), tnn.Sequential(tnn.Linear(4, 3), tnn.ReLU())),
        (
            nn.Sequential(nn.Linear(3, 2, bias=False), nn.Tanh(), nn.Sigmoid()),
            tnn.Sequential(tnn.Linear(3, 2, bias=False), tnn.Tanh(), tnn.Sigmoid()),
        ),
        (nn.Sequential(), tnn.Sequential()),
        (
            nn.Sequential(OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.ReLU())])),
            tnn.Sequential(OrderedDict([("fc", tnn.Linear(1, 1)), ("act", tnn.ReLU())])),
        ),
        (
            nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))[1:],
            tnn.Sequential(tnn.Linear(2, 3), tnn.ReLU(), tnn.Linear(3, 1))[1:],
        ),
        (
            nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2)]),
            tnn.ModuleList([tnn.Linear(2, 2), tnn.Linear(2, 2), tnn.ReLU(), tnn.Linear(2, 2)]),
        ),
        (custom(nn), custom(tnn)),
        (nn.ReLU(inplace=True), tnn.ReLU(inplace=True)),
        (nn.Softmax(dim=1), tnn.Softmax(dim=1)),
        (nn.LogSoftmax(), tnn.LogSoftmax()),
        (nn.Flatten(), tnn.Flatten()),
        (nn.Identity(), tnn.Identity()),
        (nn.MSELoss(), tnn.MSELoss()),
        (nn.CrossEntropyLoss(reduction="sum"), tnn.CrossEntropyLoss(reduction="sum")),
        (nn.BCELoss(), tnn.BCELoss()),
        (nn.NLLLoss(), tnn.NLLLoss()),
    ]
    for ours, theirs in pairs:
        assert repr(ours) == repr(theirs)
    assert repr(nn.Sequential(nn.Linear(4, 3), nn.ReLU())) == (
        "Sequential(\n  (0): Linear(in_features=4, out_features=3, bias=True)\n  (1): ReLU()\n)"
    )


# -- Linear ------------------------------------------------------------------------------------
def test_linear_default_init_is_uniform_in_inverse_sqrt_fan_in():
    av.manual_seed(3)
    layer = nn.Linear(16, 200)
    bound = 1 / np.sqrt(16)
    w, b = layer.weight._data, layer.bias._data
    assert layer.weight.shape == av.Size([200, 16]) and layer.bias.shape == av.Size([200])
    assert w.dtype == np.float32 and b.dtype == np.float32
    assert np.all(np.abs(w) <= bound) and np.all(np.abs(b) <= bound)
    assert w.max() > 0.9 * bound and w.min() < -0.9 * bound  # spread over the whole range
    av.manual_seed(3)
    again = nn.Linear(16, 200)
    np.testing.assert_array_equal(again.weight._data, w)  # the seed makes it repeatable


@pytest.mark.parametrize("shape", [(4,), (5, 4), (2, 5, 4)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_graph_values_and_grads_match_torch(torch, shape, bias):
    ours = nn.Linear(4, 3, bias=bias)
    theirs = torch.nn.Linear(4, 3, bias=bias)
    copy_weights(ours, theirs, torch)
    x = av.randn(*shape, requires_grad=True)
    tx = to_torch(x, torch, requires_grad=True)
    y, ty = ours(x), theirs(tx)
    assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
    np.testing.assert_allclose(y._data, ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    g = np.arange(y.numel(), dtype=np.float32).reshape(y.shape) / 10
    y.backward(av.tensor(g))
    ty.backward(torch.tensor(g))
    np.testing.assert_allclose(x.grad._data, tx.grad.numpy(), rtol=1e-5, atol=1e-5)
    for p, tp in zip(ours.parameters(), theirs.parameters(), strict=True):
        np.testing.assert_allclose(p.grad._data, tp.grad.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    ("shape", "dtype", "bias"),
    [
        ((2, 4), "float32", True),
        ((2, 3), "float64", True),
        ((3,), "float64", True),
        ((2, 2, 3), "float64", True),
        ((2, 3), "float64", False),
        ((3,), "float64", False),
        ((2, 3), "int64", True),
    ],
)
def test_linear_shape_and_dtype_errors_match_torch(torch, shape, dtype, bias):
    with pytest.raises(RuntimeError) as ours:
        nn.Linear(3, 2, bias=bias)(av.zeros(*shape, dtype=getattr(av, dtype)))
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.Linear(3, 2, bias=bias)(torch.zeros(*shape, dtype=getattr(torch, dtype)))
    assert str(ours.value) == str(theirs.value)


# -- an MLP against its torch twin ---------------------------------------------------------------
def _twin_setup(torch, out=3):
    ours, theirs = mlp(out=out), torch_mlp(torch, out=out)
    copy_weights(ours, theirs, torch)
    x = av.randn(6, 4)
    return ours, theirs, x, to_torch(x, torch)


def _compare_grads(ours, theirs):
    for (name, p), tp in zip(ours.named_parameters(), theirs.parameters(), strict=True):
        np.testing.assert_allclose(
            p.grad._data, tp.grad.numpy(), rtol=1e-5, atol=1e-6, err_msg=name
        )


LOSSES = {
    "mse": lambda lib, out: (lib.MSELoss(), np.linspace(-1, 1, out.size).reshape(out.shape)),
    "cross_entropy": lambda lib, out: (lib.CrossEntropyLoss(), np.array([0, 2, 1, 1, 0, 2])),
    "bce": lambda lib, out: (lib.BCELoss(), (np.arange(out.size) % 2.0).reshape(out.shape)),
}


@pytest.mark.parametrize("loss_name", sorted(LOSSES))
def test_mlp_forward_loss_and_grads_match_torch(torch, loss_name):
    ours, theirs, x, tx = _twin_setup(torch)
    out, tout = ours(x), theirs(tx)
    np.testing.assert_allclose(out._data, tout.detach().numpy(), rtol=1e-5, atol=1e-6)
    assert out.grad_fn.name() == tout.grad_fn.name() == "AddmmBackward0"
    assert graph_names(out.grad_fn) == graph_names(tout.grad_fn)
    if loss_name == "bce":
        out, tout = av.sigmoid(out), torch.sigmoid(tout)
    loss_fn, target = LOSSES[loss_name](nn, out._data)
    tloss_fn, _ = LOSSES[loss_name](torch.nn, out._data)
    target_dtype = np.int64 if target.dtype.kind == "i" else np.float32
    target = target.astype(target_dtype)
    loss, tloss = loss_fn(out, av.tensor(target)), tloss_fn(tout, torch.tensor(target))
    assert loss.grad_fn.name() == tloss.grad_fn.name()
    assert graph_names(loss.grad_fn) == graph_names(tloss.grad_fn)
    assert loss.shape == av.Size([]) and loss.dtype == av.float32
    assert loss.item() == pytest.approx(tloss.item(), rel=1e-5, abs=1e-6)
    assert repr(loss).split("grad_fn")[1] == repr(tloss).split("grad_fn")[1]
    loss.backward()
    tloss.backward()
    _compare_grads(ours, theirs)


# -- functional values against torch -----------------------------------------------------------
def _both(torch, array):
    return av.tensor(array, requires_grad=True), torch.tensor(array, requires_grad=True)


def _check_same(ours, theirs, inputs):
    np.testing.assert_allclose(ours._data, theirs.detach().numpy(), rtol=1e-5, atol=1e-6)
    assert graph_names(ours.grad_fn) == graph_names(theirs.grad_fn)
    g = np.linspace(0.5, 1.5, max(ours.numel(), 1)).astype(np.float32).reshape(ours.shape)
    ours.backward(av.tensor(g))
    theirs.backward(__import__("torch").tensor(g))
    for a, b in inputs:
        np.testing.assert_allclose(a.grad._data, b.grad.numpy(), rtol=1e-5, atol=1e-6)


SCORES = np.array(
    [[1.0, -2.0, 0.5, 3.0], [0.1, 0.2, 0.3, 0.4], [-1.0, 4.0, 2.0, 0.0]], dtype=np.float32
)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_and_nll_match_torch(torch, reduction):
    target = np.array([3, 0, 1])
    weight = np.array([1.0, 2.0, 0.5, 1.5], dtype=np.float32)
    cases = [
        {},
        {"weight": weight},
        {"ignore_index": 0},
        {"weight": weight, "ignore_index": 1},
    ]
    for kw in cases:
        x, tx = _both(torch, SCORES)
        okw = {k: av.tensor(v) if k == "weight" else v for k, v in kw.items()}
        tkw = {k: torch.tensor(v) if k == "weight" else v for k, v in kw.items()}
        ours = F.cross_entropy(x, av.tensor(target), reduction=reduction, **okw)
        theirs = torch.nn.functional.cross_entropy(
            tx, torch.tensor(target), reduction=reduction, **tkw
        )
        _check_same(ours, theirs, [(x, tx)])
        x, tx = _both(torch, SCORES)
        ours = F.nll_loss(x, av.tensor(target), reduction=reduction, **okw)
        theirs = torch.nn.functional.nll_loss(tx, torch.tensor(target), reduction=reduction, **tkw)
        _check_same(ours, theirs, [(x, tx)])


def test_cross_entropy_single_sample_spatial_and_soft_targets_match_torch(torch):
    tF = torch.nn.functional
    x, tx = _both(torch, SCORES[0])
    _check_same(F.cross_entropy(x, av.tensor(2)), tF.cross_entropy(tx, torch.tensor(2)), [(x, tx)])
    rng = np.random.default_rng(0)
    for shape in [(2, 3, 4), (2, 3, 4, 2), (2, 3, 2, 2, 2)]:
        spatial = rng.standard_normal(shape).astype(np.float32)
        target = rng.integers(0, 3, (shape[0], *shape[2:]))
        for reduction in ("mean", "none"):
            x, tx = _both(torch, spatial)
            ours = F.cross_entropy(x, av.tensor(target), reduction=reduction)
            theirs = tF.cross_entropy(tx, torch.tensor(target), reduction=reduction)
            _check_same(ours, theirs, [(x, tx)])
    probs = np.array([[0.1, 0.2, 0.3, 0.4], [1, 0, 0, 0], [0.25] * 4], dtype=np.float32)
    for reduction in ("mean", "sum", "none"):
        x, tx = _both(torch, SCORES)
        ours = F.cross_entropy(x, av.tensor(probs), reduction=reduction)
        theirs = tF.cross_entropy(tx, torch.tensor(probs), reduction=reduction)
        _check_same(ours, theirs, [(x, tx)])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_and_bce_match_torch(torch, reduction):
    tF = torch.nn.functional
    a = np.array([[0.2, 0.9], [0.5, 0.01]], dtype=np.float32)
    b = np.array([[0.0, 1.0], [0.3, 0.7]], dtype=np.float32)
    x, tx = _both(torch, a)
    y, ty = _both(torch, b)
    ours, theirs = F.mse_loss(x, y, reduction=reduction), tF.mse_loss(tx, ty, reduction=reduction)
    _check_same(ours, theirs, [(x, tx), (y, ty)])
    x, tx = _both(torch, a)
    y, ty = _both(torch, b)
    w = np.array([1.0, 3.0], dtype=np.float32)
    ours = F.binary_cross_entropy(x, y, weight=av.tensor(w), reduction=reduction)
    theirs = tF.binary_cross_entropy(tx, ty, weight=torch.tensor(w), reduction=reduction)
    _check_same(ours, theirs, [(x, tx), (y, ty)])


def test_bce_clamps_log_at_minus_100_like_torch(torch):
    p, y = [0.0, 1.0, 0.5], [1.0, 1.0, 0.0]
    ours = F.binary_cross_entropy(av.tensor(p), av.tensor(y), reduction="none")
    theirs = torch.nn.functional.binary_cross_entropy(
        torch.tensor(p), torch.tensor(y), reduction="none"
    )
    assert repr(ours) == repr(theirs)
    assert ours.tolist()[0] == 100.0


def test_activations_and_softmax_match_torch(torch):
    tF = torch.nn.functional
    for ours_fn, theirs_fn in [
        (F.relu, tF.relu),
        (F.tanh, torch.tanh),
        (F.sigmoid, torch.sigmoid),
        (lambda t: F.softmax(t, dim=1), lambda t: tF.softmax(t, dim=1)),
        (lambda t: F.log_softmax(t, 0), lambda t: tF.log_softmax(t, 0)),
    ]:
        x, tx = _both(torch, SCORES)
        _check_same(ours_fn(x), theirs_fn(tx), [(x, tx)])
    for module, tmodule in [(nn.ReLU(), torch.nn.ReLU()), (nn.Softmax(1), torch.nn.Softmax(1))]:
        x, tx = _both(torch, SCORES)
        _check_same(module(x), tmodule(tx), [(x, tx)])
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        implicit = F.softmax(av.tensor(SCORES))
    np.testing.assert_allclose(implicit.sum(1)._data, np.ones(3), rtol=1e-6)


def test_flatten_matches_torch(torch):
    x, tx = _both(torch, np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    _check_same(nn.Flatten()(x), torch.nn.Flatten()(tx), [(x, tx)])
    flat = av.randn(2, 3)
    assert nn.Flatten()(flat) is flat  # nothing to merge: the same tensor, as in torch


# -- errors and warnings as torch gives them ---------------------------------------------------
def _same_error(torch, ours_call, theirs_call):
    with pytest.raises(Exception) as ours:
        ours_call(F, av)
    with pytest.raises(Exception) as theirs:
        theirs_call(torch.nn.functional, torch)
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda F, t: F.binary_cross_entropy(t.zeros(5, 1) + 0.5, t.zeros(5)),
        lambda F, t: F.binary_cross_entropy(t.tensor([1.5]), t.zeros(1)),
        lambda F, t: F.binary_cross_entropy(t.tensor([0.5]), t.tensor([1])),
        lambda F, t: F.cross_entropy(t.zeros(3, 4), t.tensor([0, 1, 7])),
        lambda F, t: F.cross_entropy(t.zeros(3, 4), t.tensor([0.0, 1.0, 2.0])),
        lambda F, t: F.nll_loss(t.zeros(3, 4), t.tensor([0, 1])),
        lambda F, t: F.mse_loss(t.zeros(2), t.zeros(2), reduction="avg"),
    ],
)
def test_loss_errors_match_torch(torch, call):
    _same_error(torch, call, call)


def test_mse_warns_about_broadcasting_like_torch(torch):
    with pytest.warns(UserWarning) as ours:
        F.mse_loss(av.zeros(5, 1), av.zeros(5))
    with pytest.warns(UserWarning) as theirs:
        torch.nn.functional.mse_loss(torch.zeros(5, 1), torch.zeros(5))
    assert str(ours[0].message) == str(theirs[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.mse_loss(av.zeros(5), av.zeros(5))


# -- gradients against central finite differences (float64) ------------------------------------
def numeric_grad(f, arrays, index, eps=1e-6):
    """d f / d arrays[index] by central differences."""
    base = arrays[index]
    grad = np.zeros_like(base)
    for i in np.ndindex(base.shape):
        saved = base[i]
        base[i] = saved + eps
        up = f(*arrays)
        base[i] = saved - eps
        down = f(*arrays)
        base[i] = saved
        grad[i] = (up - down) / (2 * eps)
    return grad


def check_gradients(loss_fn, arrays, wrt):
    """Analytic gradients of sum(w · loss_fn(...)) equal the numerical ones for inputs `wrt`."""
    rng = np.random.default_rng(1)
    probe = {}

    def scalar(*arrs):
        out = loss_fn(*[av.tensor(a) for a in arrs])
        if "w" not in probe:
            probe["w"] = rng.uniform(0.5, 1.5, out.shape)
        return float(np.sum(probe["w"] * out._data))

    scalar(*arrays)
    tensors = [av.tensor(a, requires_grad=i in wrt) for i, a in enumerate(arrays)]
    out = loss_fn(*tensors)
    assert out.dtype == av.float64
    out.backward(av.tensor(probe["w"]))
    for i in wrt:
        expected = numeric_grad(scalar, [a.copy() for a in arrays], i)
        np.testing.assert_allclose(tensors[i].grad._data, expected, rtol=1e-6, atol=1e-8)


RNG = np.random.default_rng(7)
X64 = RNG.standard_normal((4, 3))
LABELS = np.array([2, 0, 1, 2])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_loss_gradients_match_finite_differences(reduction):
    y64 = RNG.standard_normal((4, 3))
    p64 = RNG.uniform(0.05, 0.95, (4, 3))
    t64 = RNG.uniform(0, 1, (4, 3))
    weight = av.tensor([0.5, 2.0, 1.0], dtype=av.float64)
    check_gradients(lambda a, b: F.mse_loss(a, b, reduction=reduction), [X64, y64], [0, 1])
    check_gradients(
        lambda a: F.cross_entropy(a, av.tensor(LABELS), reduction=reduction), [X64], [0]
    )
    check_gradients(
        lambda a: F.cross_entropy(
            a, av.tensor(LABELS), weight=weight, ignore_index=0, reduction=reduction
        ),
        [X64],
        [0],
    )
    check_gradients(lambda a: F.nll_loss(a, av.tensor(LABELS), reduction=reduction), [X64], [0])
    check_gradients(
        lambda a, b: F.binary_cross_entropy(a, b, reduction=reduction), [p64, t64], [0, 1]
    )
    soft = np.abs(y64) / np.abs(y64).sum(1, keepdims=True)
    check_gradients(lambda a: F.cross_entropy(a, av.tensor(soft), reduction=reduction), [X64], [0])


def test_linear_and_activation_gradients_match_finite_differences():
    w, b = RNG.standard_normal((2, 3)), RNG.standard_normal(2)
    for x in (X64, X64[0], RNG.standard_normal((2, 4, 3))):
        check_gradients(lambda x, w, b: F.linear(x, w, b), [x, w, b], [0, 1, 2])
        check_gradients(lambda x, w: F.linear(x, w), [x, w], [0, 1])
    check_gradients(lambda a: F.log_softmax(a, 1), [X64], [0])
    check_gradients(lambda a: F.softmax(a, 0), [X64], [0])
    check_gradients(F.tanh, [X64], [0])


def test_mlp_in_float64_matches_finite_differences():
    model = mlp().double()
    assert model[0].weight.dtype == av.float64
    x, labels = av.tensor(RNG.standard_normal((5, 4))), av.tensor([0, 1, 2, 1, 0])

    def loss_value():
        return F.cross_entropy(model(x), labels).item()

    F.cross_entropy(model(x), labels).backward()
    for name, p in model.named_parameters():
        store = p._storage()
        expected = numeric_grad(lambda *_: loss_value(), [store], 0)
        np.testing.assert_allclose(p.grad._data, expected, rtol=1e-6, atol=1e-9, err_msg=name)


# -- state_dict, copies, dtypes -----------------------------------------------------------------
def test_state_dict_round_trip_and_into_torch(torch):
    source, target = mlp(seed=1), mlp(seed=2)
    state = source.state_dict()
    assert all(not v.requires_grad for v in state.values())
    weight = target[0].weight
    result = target.load_state_dict(state)
    assert repr(result) == "<All keys matched successfully>"
    assert target[0].weight is weight  # loaded in place
    np.testing.assert_array_equal(target[2].bias._data, source[2].bias._data)
    theirs = torch_mlp(torch)
    theirs.load_state_dict({k: torch.from_numpy(np.array(v._data)) for k, v in state.items()})
    x = av.randn(3, 4)
    np.testing.assert_allclose(
        source(x)._data, theirs(to_torch(x, torch)).detach().numpy(), rtol=1e-5, atol=1e-6
    )


def test_load_state_dict_errors_match_torch(torch):
    ours, theirs = mlp(), torch_mlp(torch)
    bad = {k: v for k, v in ours.state_dict().items() if k != "0.bias"}
    bad["extra"] = av.zeros(1)
    bad["2.weight"] = av.zeros(2, 2)
    with pytest.raises(RuntimeError) as err:
        ours.load_state_dict(bad)
    with pytest.raises(RuntimeError) as terr:
        theirs.load_state_dict({k: torch.from_numpy(np.array(v._data)) for k, v in bad.items()})
    assert str(err.value) == str(terr.value)
    loose = ours.load_state_dict({"0.weight": av.zeros(5, 4)}, strict=False)
    assert loose.missing_keys == ["0.bias", "2.weight", "2.bias"] and not loose.unexpected_keys
    assert not np.any(ours[0].weight._data)


def test_deepcopy_gives_independent_parameters():
    model = mlp()
    model(av.randn(2, 4)).sum().backward()
    twin = copy.deepcopy(model)
    assert twin[0].weight is not model[0].weight
    assert isinstance(twin[0].weight, nn.Parameter)
    np.testing.assert_array_equal(twin[0].weight._data, model[0].weight._data)
    np.testing.assert_array_equal(twin[0].weight.grad._data, model[0].weight.grad._data)
    twin.zero_grad()
    twin(av.randn(2, 4)).sum().backward()
    twin[0].weight._storage()[...] = 0
    assert np.any(model[0].weight._data)
    assert model[0].weight.grad is not None and twin[0].weight.grad is not None


def test_double_and_to_keep_parameter_identity():
    model = mlp()
    weight = model[0].weight
    assert model.to(av.float64) is model and model[0].weight is weight
    assert weight.dtype == av.float64
    assert model.to("cpu").float()[0].weight.dtype == av.float32


# -- training ------------------------------------------------------------------------------------
def test_xor_training_loop_reduces_loss():
    av.manual_seed(0)
    x = av.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = av.tensor([[0.0], [1.0], [1.0], [0.0]])
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1), nn.Sigmoid())
    opt = av.optim.Adam(model.parameters(), lr=0.05)
    loss_fn = nn.BCELoss()
    losses = []
    for _ in range(300):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.1 * losses[0]
    assert ((model(x)._data > 0.5) == (y._data > 0.5)).all()
