"""Arguments do what torch's do, not only parse: backward(inputs=), solve(left=False),
searchsorted's sorter, pinv's tolerances, strict modes, scheduler epochs, pruning again, module
and optimizer hooks, each compared with torch where it is installed; and a check that no public
argument is taken and silently ignored."""

import ast
import warnings
from pathlib import Path

import numpy as np
import pytest

import autoviz
from autoviz.errors import NotInAutoviz

ROOT = Path(autoviz.__file__).resolve().parent


def test_backward_into_chosen_inputs_only():
    x = autoviz.tensor([1.0, 2.0], requires_grad=True)
    w = autoviz.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    y = (h * 3).sum()
    y.backward(inputs=[w, h], retain_graph=True)
    assert x.grad is None and w.grad.tolist() == [3.0, 6.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # torch warns only while a non-leaf's grad is unset
        assert h.grad.tolist() == [3.0, 3.0]
    with pytest.raises(NotInAutoviz, match=r"is_grads_batched=True\) is not in autoviz: it runs"):
        autoviz.autograd.grad(y, w, is_grads_batched=True)
    autoviz.autograd.backward(y, inputs=w)
    assert w.grad.tolist() == [6.0, 12.0]  # accumulated, as .grad always is
    with pytest.raises(RuntimeError, match=r"^`inputs` argument to `backward\(\)` cannot be empty"):
        y.backward(inputs=[])


def _both(f):
    torch = pytest.importorskip("torch")
    theirs, ours = f(torch), f(autoviz)
    theirs = theirs if isinstance(theirs, tuple) else (theirs,)
    ours = ours if isinstance(ours, tuple) else (ours,)
    for a, b in zip(theirs, ours, strict=True):
        np.testing.assert_allclose(np.asarray(b.tolist()), np.asarray(a.tolist()), rtol=1e-12)
        assert str(a.dtype) == repr(b.dtype)


def _solve_left_false(t):
    a = t.tensor([[2.0, 1.0], [0.5, 3.0]], dtype=t.float64, requires_grad=True)
    b = t.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=t.float64, requires_grad=True)
    x = t.linalg.solve(a, b, left=False)
    (x * t.arange(6.0, dtype=t.float64).reshape(3, 2)).sum().backward()
    return x, a.grad, b.grad


def test_solve_on_the_right():
    x, *_ = _solve_left_false(autoviz)
    a = np.array([[2.0, 1.0], [0.5, 3.0]])
    np.testing.assert_allclose(x.detach().numpy() @ a, [[1, 2], [3, 4], [5, 6]], rtol=1e-12)
    _both(_solve_left_false)


CASES = {
    "searchsorted sorter": lambda t: t.searchsorted(
        t.tensor([3, 1, 2, 5]), t.tensor([2, 4]), sorter=t.tensor([1, 2, 0, 3])
    ),
    "unique_consecutive dim 0": lambda t: t.unique_consecutive(
        t.tensor([[1, 1], [1, 1], [2, 3], [1, 1]]), dim=0, return_inverse=True, return_counts=True
    ),
    "unique_consecutive dim 1": lambda t: t.unique_consecutive(
        t.tensor([[1, 1, 2, 2], [3, 3, 4, 5]]), dim=1, return_counts=True
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_selection_arguments_are_torchs(name):
    _both(CASES[name])


def _embedding_by_frequency(t):
    t.manual_seed(0)
    e = t.nn.Embedding(6, 3, scale_grad_by_freq=True, padding_idx=0)
    (e(t.tensor([[1, 2, 1], [3, 1, 0]])) * t.arange(18.0).reshape(2, 3, 3)).sum().backward()
    return e.weight.grad


def test_embedding_scales_each_rows_gradient_by_its_frequency():
    grad = _embedding_by_frequency(autoviz)
    # row 1 is picked three times: the mean of its three upstream rows, not their sum
    assert grad[1].tolist() == [(0 + 6 + 12) / 3, (1 + 7 + 13) / 3, (2 + 8 + 14) / 3]
    _both(_embedding_by_frequency)


def _hooks(t):
    seen = []

    class Scaled(t.nn.Module):
        def forward(self, x, scale=1.0):
            if scale < 0:
                raise ValueError("negative scale")
            return x * scale

    m = Scaled()
    m.register_forward_pre_hook(
        lambda mod, a, k: (a, {**k, "scale": k.get("scale", 1.0) * 2}), with_kwargs=True
    )
    m.register_forward_hook(lambda mod, a, k, out: seen.append(sorted(k)), with_kwargs=True)
    m.register_forward_hook(lambda mod, a, out: seen.append(out is None), always_call=True)
    y = m(t.tensor([1.0, 2.0]), scale=3.0)
    with pytest.raises(ValueError, match="negative scale"):
        m(t.tensor([1.0]), scale=-1.0)
    return y.tolist(), seen


def test_forward_hooks_with_kwargs_and_always_called():
    assert _hooks(autoviz) == ([6.0, 12.0], [["scale"], False, True])
    torch = pytest.importorskip("torch")
    assert _hooks(torch) == _hooks(autoviz)


def _pinv_cutoffs(t):
    a = t.tensor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.1]], dtype=t.float64)
    s = t.tensor([[2.0, 1.0], [1.0, 2.0]], dtype=t.float64)
    return (
        t.linalg.pinv(a),
        t.linalg.pinv(a, atol=0.1),  # drops the small singular value: a rank-1 inverse
        t.linalg.pinv(a, rtol=0.5),
        t.linalg.pinv(s, hermitian=True, atol=1.5),
    )


def test_pinv_drops_singular_values_under_atol_and_rtol():
    full, dropped, *_ = _pinv_cutoffs(autoviz)
    assert float(full.abs().max()) > 20 and float(dropped.abs().max()) < 0.1
    _both(_pinv_cutoffs)


def _svd_without_uv(t):
    m = t.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=t.float64)
    return tuple(t.svd(m, compute_uv=False))


def test_svd_without_uv_gives_zero_filled_u_and_v():
    u, _, v = _svd_without_uv(autoviz)
    assert tuple(u.shape) == (2, 2) and tuple(v.shape) == (3, 3) and not u.any() and not v.any()
    _both(_svd_without_uv)


def _schedules_stepped_to_an_epoch(t):
    w = t.nn.Parameter(t.ones(1))
    rates, messages = [], set()
    schedules = (
        (t.optim.lr_scheduler.StepLR, {"step_size": 2, "gamma": 0.5}),
        (t.optim.lr_scheduler.ExponentialLR, {"gamma": 0.9}),
        (t.optim.lr_scheduler.CosineAnnealingLR, {"T_max": 10}),
    )
    for schedule, options in schedules:
        opt = t.optim.SGD([w], lr=1.0)
        scheduler = schedule(opt, **options)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for epoch in (3, 7, 5):  # the closed form at that epoch, as torch's deprecated path
                opt.step()
                scheduler.step(epoch)
                rates.append(round(opt.param_groups[0]["lr"], 12))
        messages |= {str(c.message)[:45] for c in caught}
    return rates, messages


def test_scheduler_step_with_an_epoch_jumps_there_with_torchs_warning():
    rates, messages = _schedules_stepped_to_an_epoch(autoviz)
    assert rates[:3] == [0.5, 0.125, 0.25]  # StepLR at epochs 3, 7, 5: 0.5^(epoch // 2)
    assert messages == {"The epoch parameter in `scheduler.step()` was"}
    torch = pytest.importorskip("torch")
    assert _schedules_stepped_to_an_epoch(torch) == (rates, messages)


def _functional_call_strict(t):
    m = t.nn.Linear(2, 1)
    call = t.nn.utils.stateless.functional_call
    given = {"weight": t.ones(1, 2), "bias": t.zeros(1)}
    messages = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        out = call(m, given, (t.ones(2),), strict=True)
        for wrong in ({"weight": t.ones(1, 2)}, {**given, "extra": t.ones(1)}):
            with pytest.raises(RuntimeError) as error:
                call(m, wrong, (t.ones(2),), strict=True)
            messages.append(str(error.value))
    return out.tolist(), messages


def test_functional_call_strict_names_missing_and_unexpected_keys():
    out, messages = _functional_call_strict(autoviz)
    assert out == [2.0] and messages[0].endswith("Missing key(s): 'bias'.")
    torch = pytest.importorskip("torch")
    assert _functional_call_strict(torch) == (out, messages)


def _assigned_and_looked_up(t):
    m = t.nn.Sequential(t.nn.Linear(2, 2), t.nn.BatchNorm1d(2))
    m[0].weight.requires_grad_(False)
    state = {k: v.detach().clone() + 1 for k, v in m.state_dict().items()}
    m.load_state_dict(state, assign=True)
    p = m.get_parameter("0.weight")
    found = [type(p).__name__, p.requires_grad, p.data_ptr() == state["0.weight"].data_ptr()]
    found.append(m.get_buffer("1.running_mean").data_ptr() == state["1.running_mean"].data_ptr())
    found.append(type(m.get_submodule("1")).__name__)
    for wrong in (lambda: m.get_submodule("0.x"), lambda: m.get_parameter("1.running_mean")):
        with pytest.raises(AttributeError) as error:
            wrong()
        found.append(str(error.value))
    return found


def test_load_state_dict_assign_and_the_dotted_lookups():
    found = _assigned_and_looked_up(autoviz)
    assert found[:3] == ["Parameter", False, True]  # the state dict's own tensor, frozen still
    torch = pytest.importorskip("torch")
    assert _assigned_and_looked_up(torch) == found


def _backward_pre_hooked(t):
    t.manual_seed(0)
    lin = t.nn.Linear(2, 1)
    seen = []

    def doubled(module, grad_output):
        seen.append(grad_output[0].tolist())
        return (grad_output[0] * 2,)

    lin.register_full_backward_pre_hook(doubled)
    lin.register_full_backward_hook(lambda m, gi, go: seen.append(go[0].tolist()))
    x = t.tensor([[1.0, 2.0]], requires_grad=True)
    lin(x).sum().backward()
    return seen, x.grad.tolist(), lin.weight.grad.tolist()


def test_a_full_backward_pre_hook_may_replace_the_output_gradient():
    seen, _, weight_grad = _backward_pre_hooked(autoviz)
    assert seen == [[[1.0]], [[2.0]]] and weight_grad == [[2.0, 4.0]]  # doubled on its way in
    torch = pytest.importorskip("torch")
    assert _backward_pre_hooked(torch) == _backward_pre_hooked(autoviz)


def _step_hooked(t):
    w = t.nn.Parameter(t.tensor([1.0, 2.0]))
    opt = t.optim.SGD([w], lr=0.5)
    seen = []
    handle = opt.register_step_pre_hook(lambda o, a, k: seen.append(("pre", w.tolist())))
    opt.register_step_post_hook(lambda o, a, k: seen.append(("post", w.tolist())))
    (w * w).sum().backward()
    opt.step()
    handle.remove()
    opt.step()
    return seen


def test_optimizer_step_hooks_run_around_each_step():
    assert _step_hooked(autoviz) == [
        ("pre", [1.0, 2.0]),
        ("post", [0.0, 0.0]),
        ("post", [-1.0, -2.0]),
    ]
    torch = pytest.importorskip("torch")
    assert _step_hooked(torch) == _step_hooked(autoviz)


# Arguments autoviz may take and not read, each with why that is true to torch: what they
# choose (a device, a memory layout, a kernel, a speed-up) does not change a result here.
UNREAD = {
    "device devices non_blocking pin_memory layout memory_format": "one CPU, dense strided memory",
    "foreach driver compute_mode output_size assume_unique vectorize strategy "
    "outer_jacobian_strategy set_priority": "a kernel or speed-up choice, same numbers",
    "sparse sparse_grad": "the same gradient, dense (sparse layouts are out of scope)",
    "_stacklevel relevant_args _instance _use_new_zipfile_serialization map_location "
    "pickle_module mmap check_available": "torch's plumbing, no effect on a CPU result",
    "only_inputs eps num_averaged": "ignored by torch itself (deprecated or unused)",
    "return_indices": "the *_with_indices functions always return them, as torch's",
    "sorted": "torch's CPU unique and topk sort either way",
    "seed": "torch.cuda's seeding: no CUDA device to seed",
    "tie_weights": "autoviz swaps tensors by name, so tied weights stay tied",
    "check_errors": "a singular matrix raises torch's LinAlgError either way",
    "preserve_rng_state segments": "checkpointing's recomputation: autoviz runs each function "
    "once, so random draws and numbers are the same",
}
# Functions (file:function) whose unread arguments are their signature's, as torch documents
# them, but whose effect autoviz lacks: each a known gap.
GAPS = {
    "autoviz/nn/utils/parametrizations.py:orthogonal": "only the matrix_exp-free map",
    "autoviz/autograd/gradcheck.py:gradcheck": "its optional extra checks",
    "autoviz/autograd/gradcheck.py:gradgradcheck": "gen_non_contig_grad_outputs",
}
PUBLIC = ("engine", "nn", "optim", "autograd", "distributions", "utils", "special.py")


def _unread_arguments():
    allowed = {name for names in UNREAD for name in names.split()}
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if not str(path.relative_to(ROOT)).startswith(PUBLIC):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
                continue
            if node.name in ("forward", "backward", "setup_context", "log_abs_det_jacobian"):
                continue  # an op's or a transform's fixed signature, not a user's argument
            args = node.args.args + node.args.kwonlyargs + node.args.posonlyargs
            read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            unread = [a.arg for a in args if a.arg not in read | {"self", "cls"} | allowed]
            key = f"autoviz/{path.relative_to(ROOT)}:{node.name}"
            if unread and key not in GAPS and len(node.body) > 1 + _docstring(node):
                found.append(f"{key} {unread}")
    return found


def _docstring(node) -> int:
    first = node.body[0]
    return int(isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant))


def test_no_argument_is_taken_and_silently_ignored():
    """An argument that changes torch's result must change autoviz's: a new one that is never
    read fails here (list it in UNREAD with the reason, or implement it)."""
    assert _unread_arguments() == []


def _strict_failures(t):
    functional, x, y = t.autograd.functional, t.ones(2), t.ones(2)
    calls = (
        lambda: functional.jacobian(lambda a: t.ones(2), x, strict=True),
        lambda: functional.jacobian(lambda a, b: a * 2, (x, y), strict=True),
        lambda: functional.vjp(lambda a, b: a * 2, (x, y), t.ones(2), strict=True),
        lambda: functional.jvp(lambda a, b: a * 2, (x, y), (t.ones(2), t.ones(2)), strict=True),
        lambda: functional.hessian(lambda a, b: (a * 2).sum(), (x, y), strict=True),
        lambda: functional.hvp(lambda a, b: (a * 2).sum(), (x, y), (x, y), strict=True),
        lambda: functional.hessian(lambda a, b: (a * a * b).sum(), (x, y), strict=True),
    )
    messages = []
    for call in calls:
        with pytest.raises(RuntimeError) as error:
            call()
        messages.append(str(error.value))
    messages.append(functional.jacobian(lambda a: a * a, x, strict=True).tolist())
    return messages


def test_strict_functional_derivatives_refuse_what_torch_refuses():
    messages = _strict_failures(autoviz)
    assert messages[1].startswith(
        "Output 0 of the user-provided function is independent of input 1"
    )
    torch = pytest.importorskip("torch")
    assert _strict_failures(torch) == messages


def _pruned_again(t):
    import importlib

    prune = importlib.import_module(t.__name__ + ".nn.utils.prune")
    t.manual_seed(0)
    a, b = t.nn.Linear(5, 4), t.nn.Linear(3, 2)
    kept = []
    for amount in (0.3, 0.3, 2):  # each a share of what is still unpruned, as torch's container
        prune.l1_unstructured(a, "weight", amount=amount)
        kept.append(int(a.weight_mask.sum()))
    prune.ln_structured(a, "weight", amount=1, n=2, dim=0)  # on top of the unstructured mask
    kept.append(a.weight_mask.sum(1).tolist())
    both = [(a, "bias"), (b, "weight")]
    for _ in range(2):
        prune.global_unstructured(both, pruning_method=prune.L1Unstructured, amount=0.3)
        kept.append([int(a.bias_mask.sum()), int(b.weight_mask.sum())])
    c = t.nn.Linear(4, 3)
    scores = {(c, "weight"): t.arange(12.0).reshape(3, 4)}
    prune.global_unstructured(
        [(c, "weight")], pruning_method=prune.L1Unstructured, amount=0.5, importance_scores=scores
    )
    kept.append(c.weight_mask.tolist())
    return kept


def test_pruning_again_prunes_what_is_left_and_importance_scores_choose():
    kept = _pruned_again(autoviz)
    assert kept[:3] == [14, 10, 8] and kept[-1][0] == [0.0] * 4
    torch = pytest.importorskip("torch")
    assert _pruned_again(torch) == kept


def _cast_modules(t):
    m = t.nn.Sequential(t.nn.Linear(2, 2), t.nn.BatchNorm1d(2))
    m.half()
    halves = [str(x.dtype) for x in [*m.parameters(), *m.buffers()]]
    m.type(t.float64)  # every tensor, the integer batch counter too
    return halves, [str(x.dtype) for x in [*m.parameters(), *m.buffers()]]


def test_module_half_and_type_cast_as_torchs():
    halves, doubles = _cast_modules(autoviz)
    assert halves[-1] == "torch.int64" and set(doubles) == {"torch.float64"}
    torch = pytest.importorskip("torch")
    assert _cast_modules(torch) == (halves, doubles)


def _legacy_backward_hook(t):
    seen = []
    lin = t.nn.Linear(2, 1)

    def shapes(module, grad_input, grad_output):
        seen.append([None if g is None else tuple(g.shape) for g in (*grad_input, *grad_output)])

    lin.register_backward_hook(shapes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lin(t.ones(3, 2, requires_grad=True)).sum().backward()
    seen.append(sorted({str(c.message)[:60] for c in caught}))
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks"):
        lin.register_full_backward_hook(shapes)
    relu = t.nn.ReLU()
    relu.register_backward_hook(lambda m, grad_input, grad_output: (grad_input[0] * 0,))
    y = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        (relu(y * 2) * 3).sum().backward()
    seen.append(y.grad.tolist())  # the hook's grad_input replaced the node's
    return seen


def test_the_deprecated_backward_hook_sits_on_the_output_node():
    seen = _legacy_backward_hook(autoviz)
    assert seen[0] == [(1,), (3, 2), (2, 1), (3, 1)]  # addmm's bias, input, weightᵀ; output
    torch = pytest.importorskip("torch")
    assert _legacy_backward_hook(torch) == seen


def _bags_by_frequency(t):
    grads = []
    cases = (
        ("sum", None, (1, 2, 1, 3, 1, 0)),
        ("mean", 1, (1, 2, 1, 3, 1, 0)),
        ("sum", None, (5, 5, 2, 4, 2, 5)),
    )
    for mode, padding_idx, indices in cases:
        t.manual_seed(0)
        bag = t.nn.EmbeddingBag(6, 2, mode=mode, scale_grad_by_freq=True, padding_idx=padding_idx)
        out = bag(t.tensor(indices), t.tensor([0, 2, 4]))
        (out * t.arange(6.0).reshape(3, 2)).sum().backward()
        grads.append(bag.weight.grad.tolist())
    return grads


def test_embedding_bag_scales_by_frequency_as_torchs_kernel():
    grads = _bags_by_frequency(autoviz)
    assert grads[0][1] == [2.0, 3.0]  # row 1, picked 3 times: its contributions (6, 9) ÷ 3
    torch = pytest.importorskip("torch")
    assert _bags_by_frequency(torch) == grads
