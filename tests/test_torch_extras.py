"""PyTorch's everyday names beyond the documented lists, each run beside real torch: mixed
precision's autocast and GradScaler (disabled, and scaling for real on the CPU), ATen's
top-level spellings of nn.functional's ops, torch.typename, set_default_tensor_type,
torch.autograd.graph, DataParallel, torch.return_types, torch.version and torch.cpu."""

import contextlib
import io
import warnings

import pytest

import autoviz
from autoviz.errors import NotInAutoviz


def _printed(program, lib) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.manual_seed(0)
        program(lib)
    return out.getvalue()


def same_in_both(program) -> str:
    torch = pytest.importorskip("torch")
    want, got = _printed(program, torch), _printed(program, autoviz)
    assert got == want
    return got


def scaled_training(torch):
    m = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=4.0, growth_interval=2)
    x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
    for step in range(5):
        opt.zero_grad()
        loss = m(x).pow(2).mean() * (float("inf") if step == 3 else 1.0)
        scaled = scaler.scale(loss)
        scaled.backward()
        print(step, scaled, m.weight.grad)
        scaler.unscale_(opt)
        print(m.weight.grad)
        print(scaler.step(opt), scaler.get_scale())
        scaler.update()
        print(scaler.get_scale(), scaler.state_dict())
    print(m.weight, m.bias)
    try:
        scaler.unscale_(opt)
        scaler.unscale_(opt)
    except RuntimeError as error:
        print(error)


def test_a_grad_scaler_on_the_cpu_scales_unscales_and_skips_a_step_with_inf_as_torch():
    printed = same_in_both(scaled_training)
    assert "4.0" in printed and "2.0" in printed  # grown after two good steps, halved after inf


def disabled_amp(torch):
    scaler = torch.cuda.amp.GradScaler()  # no GPU: disabled, as in PyTorch's CPU build
    loss = torch.ones((), requires_grad=True) * 3
    print(scaler.is_enabled(), scaler.scale(loss) is loss, scaler.get_scale(), scaler.state_dict())
    with torch.autocast(device_type="cuda"):
        print(torch.is_autocast_enabled())
    with torch.autocast("cpu", enabled=False):
        print((torch.ones(2, 2) @ torch.ones(2, 2)).dtype)
    try:
        torch.autocast(3)
    except ValueError as error:
        print(error)


def test_amp_without_a_gpu_turns_itself_off_as_torch_does():
    same_in_both(disabled_amp)


def test_cpu_autocast_says_its_dtypes_are_outside_autovizs_scope():
    with pytest.raises(NotInAutoviz, match="bfloat16 or float16"):
        autoviz.autocast("cpu")


def aten_spellings(torch):
    w = torch.randn(4, 3, requires_grad=True)
    print(torch.embedding(w, torch.tensor([0, 2, 2])))
    x, t = torch.randn(5), torch.rand(5)
    print(torch.kl_div(x, t, 2), torch.kl_div(x, t))
    print(torch.binary_cross_entropy_with_logits(x, t, None, None, 0))
    a, b, y = torch.randn(3, 4), torch.randn(3, 4), torch.tensor([1.0, -1.0, 1.0])
    print(torch.cosine_embedding_loss(a, b, y), torch.margin_ranking_loss(a[:, 0], b[:, 0], y))
    print(torch.hinge_embedding_loss(a, torch.ones(3, 4)), torch.triplet_margin_loss(a, b, a * 2))
    print(torch.poisson_nll_loss(x, t, True, False, 1e-8, 1))
    print(torch.batch_norm(a, None, None, None, None, True, 0.1, 1e-5, False))
    print(torch.pixel_shuffle(torch.arange(16.0).reshape(1, 4, 2, 2), 2))
    print(torch.constant_pad_nd(torch.ones(2), [1, 2], 5.0))
    print(torch.adaptive_max_pool1d(torch.arange(6.0).reshape(1, 1, 6), 2))
    print(torch.max_pool1d_with_indices(torch.arange(6.0).reshape(1, 1, 6), 2))
    print(torch.detach(w).requires_grad, torch.get_device(w), torch.is_signed(w))
    print(torch.selu_(torch.tensor([-1.0, 2.0])), torch.threshold_(torch.tensor([0.5, 2.0]), 1, 0))


def test_atens_top_level_spellings_give_torchs_values():
    same_in_both(aten_spellings)


def names_and_types(torch):
    print(torch.typename(torch.ones(2, dtype=torch.int64)), torch.typename(3))
    print(torch.typename(torch.nn.Linear(1, 1)), torch.typename(torch.nn.Linear))
    print(torch.ones(2, 3).is_same_size(torch.zeros(3, 2)), torch.tensor([2.0]).is_nonzero())
    for empty in (torch.tensor([]), torch.tensor([1, 2])):
        try:
            empty.is_nonzero()
        except RuntimeError as error:
            print(error)
    torch.set_default_tensor_type(torch.FloatTensor)
    torch.set_default_tensor_type("torch.FloatTensor")
    try:
        torch.set_default_tensor_type(torch.LongTensor)
    except TypeError as error:
        print(error)
    print(torch.version.cuda, torch.version.hip, torch.cpu.is_available(), torch.cpu.device_count())
    torch.set_float32_matmul_precision("high")
    print(torch.get_float32_matmul_precision())
    torch.set_float32_matmul_precision("highest")
    print(torch.return_types.max, type(torch.ones(2, 2).max(1)) is torch.return_types.max)
    print(torch.return_types.sort, type(torch.ones(3).sort()) is torch.return_types.sort)


def test_names_types_and_settings_are_torchs():
    same_in_both(names_and_types)


def graph_api(torch):
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    _, b = torch.ones(4, requires_grad=True).split(2)
    for t in (x, y, b):
        edge = torch.autograd.graph.get_gradient_edge(t)
        print(edge.node.name(), edge.output_nr, isinstance(edge.node, torch.autograd.graph.Node))
    print(isinstance(y.grad_fn, torch.autograd.graph.Node))
    try:
        torch.autograd.graph.get_gradient_edge(torch.ones(1))
    except RuntimeError as error:
        print(error)
    v = torch.ones(2)
    torch.autograd.graph.increment_version(v)
    print(v._version)
    saved = torch.ones(2, requires_grad=True)
    z = saved.exp()
    torch.autograd.graph.increment_version(z)
    try:
        z.sum().backward()
    except RuntimeError as error:
        print(str(error).split(";")[0])


def test_autograd_graph_names_nodes_and_edges_as_torch():
    same_in_both(graph_api)


def data_parallel(torch):
    net = torch.nn.DataParallel(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU()))
    print(net)
    print(list(net.state_dict()), net.device_ids)
    print(net(torch.ones(3, 2)))
    print(net.module[0].weight.grad)


def test_data_parallel_without_gpus_runs_its_module_as_torch_does():
    same_in_both(data_parallel)


def test_whats_left_out_by_decision_says_why():
    with autoviz.as_torch():
        import torch

        with pytest.raises(ModuleNotFoundError, match="downloads and logging services"):
            import torch.utils.tensorboard
        with pytest.raises(NotInAutoviz, match="functional transforms"):
            torch.autograd.forward_ad  # noqa: B018


def state_dict_hooks(torch):
    class Scaled(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(2, 1)
            self.factor = 3

        def get_extra_state(self):
            return {"factor": self.factor}

        def set_extra_state(self, state):
            self.factor = state["factor"]

    net = torch.nn.Sequential(Scaled(), torch.nn.ReLU())
    net.register_state_dict_pre_hook(lambda m, prefix, keep: print("pre", type(m).__name__))
    net[0].register_state_dict_post_hook(lambda m, sd, prefix, meta: print("post", prefix, meta))

    def rename(module, sd, prefix, meta, strict, missing, unexpected, errors):
        if prefix + "old_weight" in sd:
            sd[prefix + "weight"] = sd.pop(prefix + "old_weight")

    net[0].lin.register_load_state_dict_pre_hook(rename)
    net.register_load_state_dict_post_hook(lambda m, keys: print("loaded", keys))
    sd = net.state_dict()
    print(list(sd), sd["0._extra_state"])
    sd["0._extra_state"] = {"factor": 5}
    sd["0.lin.old_weight"] = sd.pop("0.lin.weight")
    print(net.load_state_dict(sd), net[0].factor)
    print(net.load_state_dict({"0.lin.bias": sd["0.lin.bias"], "x": 1}, strict=False))
    try:
        net.load_state_dict({"0.lin.bias": sd["0.lin.bias"], "extra.w": 1})
    except RuntimeError as error:
        print(error)
    print(net.to_empty(device="cpu")[0].lin.weight.shape, torch.nn.Module.dump_patches)


def test_state_dict_hooks_and_extra_state_run_as_in_torch():
    same_in_both(state_dict_hooks)


def sizes_and_comparisons(torch):
    s = torch.zeros(3, 4).shape
    print(s[1:], s + (1,), (1,) + s, s * 2, type(s[:1]).__name__, s[::-1], s[0])  # noqa: RUF005
    try:
        s + [1]  # noqa: RUF005
    except TypeError as error:
        print(error)
    try:
        torch.Size([1.5])
    except TypeError as error:
        print(error)
    x = torch.ones(2)
    print(x == None, x != None, x == "a")  # noqa: E711 (what lesson code writes)
    try:
        x < None  # noqa: B015
    except TypeError as error:
        print(error)
    y = torch.ones(2, requires_grad=True) * 2
    print(y.numpy(force=True))


def test_sizes_stay_sizes_and_tensors_compare_with_none_as_torch():
    same_in_both(sizes_and_comparisons)


def container_editing(torch):
    nn = torch.nn
    s = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
    del s[-1]
    s.append(nn.Linear(2, 2))
    s.insert(1, nn.Dropout(0.1))
    print(s, s.pop(0), len(s))
    s.extend([nn.Tanh()])
    s += nn.Sequential(nn.ELU())
    print(s + nn.Sequential(nn.Sigmoid()), nn.Sequential(nn.ReLU()) * 2)
    del s[1:3]
    print(s, list(s.state_dict()))
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Linear(1, 1)])
    del ml[0]
    ml.insert(0, nn.Sigmoid())
    print(ml.pop(1), ml + [nn.ReLU()])  # noqa: RUF005 (the operators are what is tested)
    for bad in (lambda: s + [1], lambda: s * 0, lambda: s.insert(99, nn.ReLU())):  # noqa: RUF005
        try:
            bad()
        except (ValueError, IndexError) as error:
            print(type(error).__name__, str(error).split(" for ")[0])


def test_sequential_and_module_list_edit_as_lists_as_torch():
    same_in_both(container_editing)


def inference_writes(torch):
    with torch.inference_mode():
        p = torch.ones(2) * 2
    for write in (lambda: p.add_(1), lambda: p.__setitem__(0, 5), lambda: p.copy_(p * 0)):
        try:
            write()
        except RuntimeError as error:
            print(error)
    print(p)
    with torch.inference_mode():
        p.add_(1)
    print(p, p.clone().add_(1))


def test_an_inference_tensor_refuses_writes_outside_inference_mode_as_torch():
    same_in_both(inference_writes)


def scalar_samples(torch):
    dist = torch.distributions
    for d in (dist.Gamma(2.0, 2.0), dist.Chi2(3.0), dist.Poisson(2.0), dist.Binomial(5, 0.3)):
        print(type(d).__name__, d.sample().shape, d.sample((2,)).shape)
    for m in (torch.nn.LSTM(3, 4), torch.nn.RNN(3, 4)):
        try:
            m(torch.randn(5, 1, 1, 3))
        except ValueError as error:
            print(error)


def test_scalar_distributions_sample_scalars_and_rnn_errors_read_as_torch():
    same_in_both(scalar_samples)


def test_torch_version_compares_as_a_version():
    with autoviz.as_torch():
        import torch

        version = torch.__version__
        assert version == "2.13.0+autoviz" and version >= "2.6" and version >= (2, 13)
        assert version < "2.14.0.dev20260101" and version > "2.13.0rc1"
        assert not version > (2, 13, 0, 1) and version.split("+")[0] == "2.13.0"
        assert torch.version.__version__ is version
    assert autoviz.__version__ == "0.1.0"  # autoviz's own, outside the block


def encoder_padding(torch):
    torch.set_default_device(None)  # a default device set turns torch's fast path off
    nn = torch.nn
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 1).eval()
    x = torch.randn(2, 3, 4)
    left = torch.tensor([[False, False, True], [False, False, False]])
    gap = torch.tensor([[False, True, False], [False, False, False]])
    with torch.no_grad():
        print(enc(x, src_key_padding_mask=left)[0, 2], enc(x, src_key_padding_mask=gap)[0, 1])
    print(enc(x, src_key_padding_mask=left)[0, 2])  # with grad: the ordinary path


def test_transformer_encoder_zeroes_padding_where_torchs_fast_path_does():
    assert "0., 0., 0., 0." in same_in_both(encoder_padding)


def numpy_meets_tensors(torch):
    import numpy as np

    t = torch.tensor([1.0, 2.0])
    for a in (np.array([0.5, 0.25]), np.array(2.0), np.array([1, 2])):
        r = t * a
        print(type(r).__name__, r, t + a, t / a)
    print(torch.tensor([np.float64(1.0)]).dtype, torch.tensor([1, np.float64(2)]).dtype)
    try:
        torch.from_numpy(np.arange(3)[::-1])
    except ValueError as error:
        print(error)
    x = torch.randn(4, 3)
    print(torch.cat([x, torch.zeros(4, 1, dtype=torch.long)], 1).dtype)
    print(torch.stack([torch.ones(2, dtype=torch.int32), torch.ones(2)]).dtype)
    v, mask = torch.tensor([0.5, 0.7, 0.9]), torch.ByteTensor([0, 1, 0])
    print(v[mask])
    try:
        v[mask] = 0.0
    except RuntimeError as error:
        print(error)
    p = torch.nn.Parameter(torch.ones(2))
    p.grad_avg = torch.zeros(2)
    print(p.grad_avg)
    for bad in (lambda: torch.nn.BatchNorm2d(4)(torch.randn(2, 3, 4, 4)),
                lambda: torch.nn.GroupNorm(3, 4)):  # fmt: skip
        try:
            bad()
        except (RuntimeError, ValueError) as error:
            print(error)


def test_numpy_arrays_dtypes_masks_and_attributes_meet_tensors_as_in_torch():
    same_in_both(numpy_meets_tensors)


def custom_optimizer(torch):
    class MySGD(torch.optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, {"lr": 0.1})

        @torch.no_grad()
        def step(self):
            for p in self.param_groups[0]["params"]:
                state = self.state[p]  # a defaultdict, as in torch
                state["step"] = state.get("step", 0) + 1
                p.sub_(p.grad * 0.1)

    w = torch.nn.Parameter(torch.ones(2))
    opt = MySGD([w])
    (w * 3).sum().backward()
    opt.step()
    print(w, opt.state, opt.state_dict())


def test_an_optimizers_state_is_a_defaultdict_as_in_torch():
    same_in_both(custom_optimizer)


def global_module_hooks(torch):
    hooks = torch.nn.modules.module
    register_module_forward_hook = hooks.register_module_forward_hook
    register_module_forward_pre_hook = hooks.register_module_forward_pre_hook
    net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU())
    net[0].register_forward_hook(lambda m, i, o: print("own", type(m).__name__))
    post = register_module_forward_hook(lambda m, i, o: print("global", type(m).__name__))
    pre = register_module_forward_pre_hook(lambda m, i: print("pre", type(m).__name__))
    net(torch.ones(1, 2))
    post.remove()
    pre.remove()
    net(torch.ones(1, 2))


def test_global_module_hooks_run_before_each_modules_own_as_torch():
    assert "global Linear\nown Linear" in same_in_both(global_module_hooks)


def memory_formats(torch):
    x = torch.ones(2, 3).t()
    for make in (torch.zeros_like, torch.ones_like, torch.empty_like):
        print(make(x).stride(), make(x, memory_format=torch.contiguous_format).stride())
    print(torch.full_like(x, 7).stride(), torch.preserve_format)
    print(torch.zeros_like(torch.ones(2, 1).expand(2, 3)).stride())


def test_like_functions_keep_the_inputs_layout_as_torchs_preserve_format():
    same_in_both(memory_formats)
