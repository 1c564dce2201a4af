"""Autograd's finer rules and torch's rounding, as teaching scripts from courses, books and
blogs show them, each run beside real torch: powers special-cased by torch's kernel, add
and sub with alpha fused into one rounding, gradients for any iterable of inputs, hooks'
order and checks, anomaly mode's NaN check, losses given integer targets, grad-mode reprs."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_torch_extras import same_in_both

import autoviz

torch = pytest.importorskip("torch")

EXPONENTS = (2, 3, -0.5, -1, -2, 1, 0)  # the ones torch's kernel computes by products


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(st.floats(0.0625, 50.0, width=32), min_size=1, max_size=40),
    exponent=st.sampled_from(EXPONENTS),
    double=st.booleans(),
)
def test_powers_torch_special_cases_match_it_bit_for_bit(values, exponent, double):
    """x ** 3 is x * x * x in torch and x ** -0.5 is 1 / sqrt(x): not numpy's pow."""
    got, want = [], []
    for lib, out in ((autoviz, got), (torch, want)):
        x = lib.tensor(values, dtype=lib.float64 if double else lib.float32)
        x.requires_grad_()
        y = x**exponent
        (g,) = lib.autograd.grad(y.sum(), x)
        out += [y.detach().numpy().tobytes(), g.numpy().tobytes()]
    assert got[0] == want[0]
    if exponent not in (-0.5, -2):  # their gradients use powers torch does not special-case
        assert got[1] == want[1]


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(1, 40),
    alpha=st.floats(-3, 3, width=32).filter(lambda a: a not in (0, 1)),
    subtract=st.booleans(),
)
def test_add_and_sub_with_alpha_round_once_in_one_node(rows, alpha, subtract):
    results = []
    for lib in (autoviz, torch):
        lib.manual_seed(rows)
        a, b = lib.randn(rows, 3, requires_grad=True), lib.randn(3, requires_grad=True)
        y = (lib.sub if subtract else lib.add)(a, b, alpha=alpha)
        y.sum().backward()
        h = a.detach().clone()
        h.add_(b.detach(), alpha=alpha)
        names = type(y.grad_fn).__name__
        results.append((y.detach().numpy().tobytes(), h.numpy().tobytes(), names, b.grad.tolist()))
    assert results[0] == results[1]


def gradients_of_iterables(torch):
    m = torch.nn.Linear(2, 1)
    print(torch.autograd.grad(m(torch.ones(1, 2)).sum(), m.parameters()))
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    print(torch.autograd.grad((a * 2).sum(), {"a": a}.values()))
    (a * 2).sum().backward(inputs=(t for t in [a]))
    print(a.grad)
    b = a * 3
    b.retain_grad()
    (b**2).sum().backward(inputs=[b])
    print(b.grad, a.grad)


def test_gradients_for_any_iterable_of_inputs_and_a_retained_one_counted_once():
    same_in_both(gradients_of_iterables)


def hooks(torch):
    a = torch.ones(2, requires_grad=True)
    y = a * 1
    y.retain_grad()
    y.register_hook(lambda g: g * 2)  # runs before the hook that keeps y.grad
    y.sum().backward()
    print(y.grad, a.grad)
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    z = b * 3
    z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: print(grad_inputs, grad_outputs))
    z.sum().backward()
    c = b * 2
    c.register_hook(lambda g: torch.ones(5))
    try:
        c.sum().backward()
    except RuntimeError as error:
        print(error)


def test_hooks_run_in_torchs_order_and_a_resized_gradient_is_refused():
    same_in_both(hooks)


def anomaly(torch):
    s = torch.tensor([0.0, 1.0], requires_grad=True)
    with torch.autograd.detect_anomaly():
        try:
            (torch.sqrt(s) * 0).sum().backward()
        except RuntimeError as error:
            print(error)
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        (torch.sqrt(s) * 0).sum().backward()
        print(s.grad, torch.is_anomaly_check_nan_enabled())
    print(torch.is_anomaly_enabled())


def test_anomaly_mode_stops_at_the_node_that_returned_nan():
    same_in_both(anomaly)


def test_grad_modes_print_as_torchs_under_as_torch():
    want = [repr(torch.set_grad_enabled(True)), type(torch.no_grad()).__module__]
    want.append(torch.autograd.detect_anomaly.__module__)
    with autoviz.as_torch():
        import torch as alias

        got = [repr(alias.set_grad_enabled(True)), type(alias.no_grad()).__module__]
        got.append(alias.autograd.detect_anomaly.__module__)
    assert got == want


def integer_targets(torch):
    F = torch.nn.functional
    p = torch.tensor([0.5, -1.0])
    losses = (
        F.binary_cross_entropy_with_logits,
        F.huber_loss,
        F.smooth_l1_loss,
        lambda p, t: F.kl_div(p, t, reduction="sum"),
        torch.dist,
    )
    for target in (torch.tensor([1, 0]), torch.tensor([True, False])):
        for loss in losses:
            try:
                value = loss(p, target)
                print(value, value.dtype)
            except RuntimeError as error:
                print(error)


def test_losses_given_integer_and_bool_targets_compute_or_refuse_as_torch():
    same_in_both(integer_targets)


def memory_formats(torch):
    x = torch.ones(2, 3).t()
    print(x.clone().stride(), x.clone(memory_format=torch.contiguous_format).stride())
    print(torch.clone(x, memory_format=torch.preserve_format).stride())
    print(x.contiguous(memory_format=torch.contiguous_format).stride())


def test_clone_and_contiguous_take_a_memory_format():
    same_in_both(memory_formats)


def test_lbfgs_steps_round_as_torchs_fused_adds():
    def program(torch):
        x = torch.tensor([1.5, -0.5], requires_grad=True)
        opt = torch.optim.LBFGS([x], lr=1)

        def closure():
            opt.zero_grad()
            loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
            loss.backward()
            return loss

        for _ in range(6):
            print(np.float32(opt.step(closure).item()).tobytes().hex())
        print(x.detach().numpy().tobytes().hex())

    same_in_both(program)


def in_place_activations(torch):
    F = torch.nn.functional
    x = torch.tensor([-1.0, 2.0, 0.5], requires_grad=True)
    for act in (
        lambda h: F.relu(h, inplace=True),
        lambda h: F.leaky_relu(h, 0.1, inplace=True),
        lambda h: F.elu(h, inplace=True),
        lambda h: F.hardtanh(h, inplace=True),
        lambda h: torch.nn.ReLU(inplace=True)(h),
    ):
        h = x * 1
        y = act(h)
        y.sum().backward()
        print(y is h, h, type(h.grad_fn).__name__, x.grad)
        x.grad = None
    for attempt in (lambda: F.relu(x, inplace=True), lambda: F.relu(x.exp(), True).sum()):
        try:
            h = attempt()
            h.backward()
        except RuntimeError as error:
            print(error)


def test_in_place_activations_change_their_input_in_a_graph_as_torch():
    same_in_both(in_place_activations)


def everyday_spellings(torch):
    x = torch.tensor([1.0, -2.0])
    print(+x, (+x) is x, torch.ones(2, 3).mH.shape, torch.ones(2, 3, requires_grad=True).H)
    parts = torch.utils.data.random_split(range(10), torch.tensor([8, 2]))
    print([list(part) for part in parts])
    print(torch.randperm(torch.tensor(5)), x.topk(torch.tensor(1)))
    print(
        [c.shape for c in torch.ones(5).chunk(torch.tensor(2))],
        torch.linspace(0, 1, torch.tensor(3)),
    )
    z = torch.zeros(3)
    print(z.scatter_(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0]), reduce="add"))
    print(torch.ones(3).scatter(0, torch.tensor([0, 0]), 3.0, reduce="multiply"))
    print(torch.ones(3, 0) @ torch.ones(0, 2), torch.einsum(torch.ones(2, 2), [0, 1], [1]))


def test_everyday_spellings_run_as_in_torch():
    same_in_both(everyday_spellings)


def refusals(torch):
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = torch.zeros(1)

    m = M()
    attempts = [
        lambda: m.register_buffer("m", torch.ones(1)),
        lambda: m.register_parameter("w", torch.ones(2)),
        lambda: m.register_parameter("x.y", None),
        lambda: m.add_module("a.b", torch.nn.Linear(1, 1)),
        lambda: torch.tensor([2**63]),
        lambda: torch.tensor("a"),
        lambda: torch.histc(torch.tensor([1, 2, 3]), bins=3),
        lambda: torch.bincount(torch.tensor([1.0, 2.0])),
        lambda: torch.zeros(0).argmax(),
        lambda: torch.tensor([4, 6]) // torch.tensor([2, 0]),
        lambda: torch.zeros(3).add_(torch.ones(2, 3)),
        lambda: torch.einsum("ij->k", torch.ones(2, 2)),
        lambda: torch.tensor(0.3) - torch.tensor(True),
        lambda: torch.tensor([1.0, 2.0]).sub_(torch.tensor([True, False])),
    ]
    for attempt in attempts:
        try:
            print(attempt())
        except (RuntimeError, KeyError, TypeError, ValueError, IndexError) as error:
            print(type(error).__name__, error)
        except NotImplementedError as error:
            print("NotImplementedError", error)


def test_bad_calls_are_refused_with_torchs_exception_and_message():
    same_in_both(refusals)


def shape_and_type_errors(torch):
    F = torch.nn.functional
    attempts = [
        lambda: torch.zeros(2, 3, 5).masked_fill(torch.ones(2, 3, 3, dtype=torch.bool), 0.0),
        lambda: torch.cdist(torch.ones(3, 48), torch.ones(4, 16)),
        lambda: torch.nn.Conv2d(1, 1, 3)(torch.ones(1, 1, 5, 5, dtype=torch.float64)),
        lambda: torch.nn.LSTM(2, 3)(torch.ones(4, 1, 2, dtype=torch.float64)),
        lambda: F.cross_entropy(torch.ones(4, 3, 6), torch.zeros(4, 6, dtype=torch.long)),
        lambda: F.cross_entropy(torch.ones(3, 4), torch.ones(3, 3)),
        lambda: torch.zeros(3, 3)[[0, 1], [0, 1, 2]],
        lambda: torch.zeros(8).index_fill_(0, torch.tensor([9]), 1.0),
        lambda: torch.arange(8).__setitem__(torch.arange(8) > 3, torch.tensor([1, 2])),
        lambda: torch.linalg.inv(torch.arange(1.0, 10.0).reshape(3, 3)),
        lambda: torch.linalg.inv(torch.stack([torch.eye(2), torch.tensor([[1.0, 2], [2, 4]])])),
        lambda: torch.ones(4).split(0),
        lambda: torch.ones(4).flip(0, 0),
        lambda: torch.zeros(3).index_add_(0, torch.tensor([0]), torch.ones(2)),
        lambda: torch.zeros(3).masked_select(torch.ones(4, dtype=torch.bool)),
    ]
    for attempt in attempts:
        try:
            print(attempt())
        except (RuntimeError, IndexError, ValueError) as error:
            print(type(error).__name__, error)


def test_shape_and_dtype_mistakes_get_torchs_messages():
    same_in_both(shape_and_type_errors)


def saved_for_backward(torch):
    q = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([5.0, 5.0])
    for z in (q / c, c / q, c * q, q * q):
        print(z.grad_fn._saved_self, z.grad_fn._saved_other)
    y = q**2
    print(y.grad_fn._saved_exponent, y.grad_fn._saved_self, q.pow(2.5).grad_fn._saved_exponent)
    s = torch.softmax(q, 0)
    print(s.grad_fn._saved_dim, s.grad_fn._saved_result)
    with torch.inference_mode():
        i = q * 2
    for use in (lambda: i + q, lambda: i * q, lambda: i @ torch.ones(2, 2, requires_grad=True)):
        try:
            print(type(use().grad_fn).__name__)
        except RuntimeError as error:
            print(error)


def test_what_nodes_saved_and_inference_tensors_they_refuse_as_torch():
    same_in_both(saved_for_backward)


def aliases_follow_in_place_changes(torch):
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    h = x * 1
    detached, data = h.detach(), h.data
    torch.relu_(h)  # in place, in the graph: what shares h's memory sees it
    print(detached, data, h)
    y = x.exp()
    e = y.detach()
    y.sigmoid_()
    print(e)
    try:
        print(torch.tensor(0.3) - (torch.tensor(1) == 1))
    except RuntimeError as error:
        print(error)
    theta = torch.tensor([[[0.9, 0.1, 0.05], [-0.1, 0.8, 0.0]]])
    grid = torch.nn.functional.affine_grid(theta, (1, 1, 5, 5), align_corners=False)
    print(grid[0, 1, 4, 1].item())


def test_detached_tensors_follow_in_place_changes_and_affine_grid_rounds_as_torch():
    same_in_both(aliases_follow_in_place_changes)


def saved_tensor_hooks(torch):
    def pack(t):
        print("packing", tuple(t.shape), t.dtype)
        return t

    def unpack(t):
        print("unpacking", tuple(t.shape))
        return t

    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = (w * w.exp()).sum()
    out.backward()
    print(w.grad)
    store = []
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(
        lambda t: store.append(t.clone()) or len(store) - 1, lambda i: store[i] * 1
    ):
        y = (x.sin() * 3 * x).sum()
    y.backward()
    print(len(store), x.grad)
    x.grad = None
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 0 + 1, lambda t: t):
        (x * x).sum().backward()  # backward computes with what unpack returned
    print(x.grad)


def test_saved_tensor_hooks_pack_what_torch_saves_and_backward_uses_the_unpacked():
    same_in_both(saved_tensor_hooks)


def indices_and_linear_algebra(torch):
    F = torch.nn.functional
    for index in (torch.tensor([-1]), torch.tensor([5])):
        attempts = [
            lambda i: torch.zeros(3).index_add_(0, i, torch.ones(1)),
            lambda i: torch.arange(3.0).index_select(0, i),
            lambda i: torch.zeros(3).index_copy_(0, i, torch.ones(1)),
            lambda i: torch.zeros(3).scatter_add_(0, i, torch.ones(1)),
            lambda i: torch.zeros(3).scatter_reduce(0, i, torch.ones(1), reduce="sum"),
            lambda i: torch.zeros(3).gather(0, i),
            lambda i: F.embedding(i, torch.ones(3, 2)),
            lambda i: torch.zeros(3).index_put_((i,), torch.tensor(1.0)),
            lambda i: torch.zeros(3).put_(i, torch.ones(1)),
        ]
        for attempt in attempts:
            try:
                print(attempt(index))
            except (IndexError, RuntimeError) as error:
                print(type(error).__name__, error)
    print(torch.sign(torch.tensor([float("nan"), 2.0, -0.0])), torch.zeros(2).layout)
    a = torch.ones(3, requires_grad=True)
    b = a.sigmoid()
    c = b * 2
    b.mul_(3)
    others = [
        lambda: c.sum().backward(),
        lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([[0, 1, 0], [1, 0, 0]])),
        lambda: torch.linalg.svd(torch.ones(3)),
        lambda: torch.linalg.solve(torch.eye(3), torch.ones(5)),
        lambda: torch.zeros(2, 3, 4)[:, [0], [9]],
        lambda: torch.linalg.qr(torch.ones(3, 2), mode="r").Q.shape,
    ]
    for attempt in others:
        try:
            print(attempt())
        except (IndexError, RuntimeError) as error:
            print(type(error).__name__, error)


def test_indices_out_of_range_and_linear_algebra_inputs_as_torch():
    same_in_both(indices_and_linear_algebra)


def factorizations_that_report(torch):
    print(torch.linalg.cholesky_ex(-torch.eye(2)))
    print(torch.linalg.cholesky_ex(torch.stack([torch.eye(2), -torch.eye(2)])).info)
    print(
        torch.linalg.cholesky_ex(torch.tensor([[4.0, 2.0, 1.0], [2.0, 1.0, 3.0], [1.0, 3.0, 5.0]]))
    )
    print(torch.linalg.inv_ex(torch.zeros(2, 2)).info, torch.linalg.inv_ex(torch.eye(2)))


def test_cholesky_ex_and_inv_ex_report_failure_in_info_as_torch():
    same_in_both(factorizations_that_report)


def test_a_detached_view_follows_its_base_after_an_in_place_op_in_the_graph():
    def program(torch):
        x = torch.tensor([[-1.0, 2.0], [3.0, -4.0]], requires_grad=True)
        h = x * 1
        row, turned = h[0].detach(), h.t().detach()
        torch.relu_(h)
        print(row, turned)

    same_in_both(program)


def loader_workers(torch):
    import random

    import numpy as np

    data = torch.utils.data

    class Augmented(data.Dataset):
        def __len__(self):
            return 6

        def __getitem__(self, i):
            info = data.get_worker_info()
            noise = torch.randn(1)
            return (
                torch.tensor(float(i)) + noise,
                random.random(),
                float(np.random.rand()),
                (-1 if info is None else info.id),
            )

    random.seed(1)
    np.random.seed(1)
    for batch in data.DataLoader(Augmented(), batch_size=2, num_workers=2):
        print(batch)
    print(torch.rand(1), random.random(), np.random.rand())  # the main streams go on as before
    loader = data.DataLoader(
        Augmented(), batch_size=2, num_workers=3, shuffle=True, worker_init_fn=np.random.seed
    )
    for batch in loader:
        print(batch[0].flatten().tolist(), batch[2], batch[3])


def test_loader_workers_draw_from_their_own_seeded_streams_as_torchs_processes():
    same_in_both(loader_workers)


def test_numpy_seeds_of_workers_are_torchs():
    from torch.utils.data._utils.worker import _generate_state  # torch is imported above

    from autoviz.utils.data.workers import numpy_seed

    for base, worker in ((0, 0), (12345678901234, 3), (2**63 - 1, 7)):
        assert numpy_seed(base, worker) == _generate_state(base, worker)


def setting_requires_grad(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    for target, value in ((y, False), (y, True), (torch.arange(3), True), (y, 1), (x, "yes")):
        try:
            target.requires_grad = value
        except RuntimeError as error:
            print(error)
    ints = torch.arange(3)
    ints.requires_grad = False
    with torch.no_grad():
        w = x * 2
    w.requires_grad = True  # made without a graph: a leaf, so it may
    print(y.requires_grad, ints.requires_grad, w.requires_grad, w.is_leaf, w.grad_fn)
    (w * w).sum().backward()
    print(w.grad, x.grad)


def test_setting_requires_grad_is_checked_as_torch_checks_it():
    """Only a leaf's flag may be turned off, only a float tensor's on, and only to a bool."""
    printed = same_in_both(setting_requires_grad)
    assert "you can only change requires_grad flags of leaf variables" in printed
    assert "tensor([4., 4.]) None" in printed


def writes_with_extra_leading_ones(torch):
    b = torch.zeros(1)
    b[0] = torch.tensor([-10.0])  # an IBM lab's bias set through state_dict()[...].data[0]
    t = torch.zeros(2, 3)
    t[1, 2] = torch.tensor([[4.0]])
    t[0] = torch.tensor([[1.0, 2.0, 3.0]])
    t[1, 1:] = torch.tensor([[[7.0]]])
    print(b, t)
    for value in (torch.tensor([[1.0, 2.0]]), torch.tensor([2.0, 3.0])):
        try:
            t[0, 0] = value
        except RuntimeError as error:
            print(error)


def test_a_value_with_extra_leading_ones_is_written_as_torch_writes_it():
    printed = same_in_both(writes_with_extra_leading_ones)
    assert "tensor([-10.])" in printed


def transposed_convolution_layout(torch):
    torch.manual_seed(0)
    up = torch.nn.ConvTranspose2d(2, 1, 3, stride=2, padding=1, output_padding=1, bias=False)
    x = torch.randn(1, 2, 2, 2, requires_grad=True)
    y = up(x)
    print(y.stride(), y.is_contiguous(), y.view(-1).shape)  # an autoencoder's decoder, flattened
    conv = torch.nn.Conv2d(2, 3, 3, stride=2, padding=1)
    z = torch.randn(1, 2, 5, 5, requires_grad=True)
    conv(z).sum().backward()
    print(z.grad.stride(), z.grad.is_contiguous())


def test_a_transposed_convolutions_output_and_a_padded_inputs_grad_are_dense():
    printed = same_in_both(transposed_convolution_layout)
    assert "(16, 16, 4, 1) True" in printed


def under_a_float64_default(torch):
    torch.set_default_dtype(torch.float64)  # Prince's "Understanding Deep Learning" notebooks
    try:
        torch.manual_seed(0)
        print(torch.get_default_dtype(), torch.tensor([1.5]) * 3, torch.tensor([1, 2]) / 3)
        print(torch.randn(2), torch.arange(0, 1, 0.5), torch.Tensor([1]).dtype, torch.zeros(0))
        print(torch.tensor([1.0], dtype=torch.float32), torch.tensor([1, 2]).sqrt())
        net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
        opt = torch.optim.Adam(net.parameters(), lr=0.01)
        x, y = torch.randn(8, 3), torch.randn(8, 1)
        for _ in range(2):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(net(x), y)
            loss.backward()
            opt.step()
            print(loss, net[0].weight.grad[0])
        print(opt.state[net[0].bias]["step"], torch.distributions.Normal(0.0, 1.0).sample((2,)))
        torch.set_default_dtype(torch.float16)
        print(torch.ones(2) / 3, torch.tensor([0.1], dtype=torch.float32))
        for wrong in (torch.int64, "float64"):
            try:
                torch.set_default_dtype(wrong)
            except TypeError as error:
                print(error)
    finally:
        torch.set_default_dtype(torch.float32)
    print(torch.tensor([1.5]), torch.tensor([1.5], dtype=torch.float64))


def test_a_float64_default_dtype_reaches_creation_layers_optimizers_and_printing():
    printed = same_in_both(under_a_float64_default)
    assert "torch.float64 tensor([4.5000])" in printed
    assert "tensor([0.1000], dtype=torch.float32)" in printed
    assert "only floating-point types are supported as the default type" in printed
