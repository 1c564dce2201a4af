"""The layers of torch.nn and nn.functional against real PyTorch: every case's outputs,
the gradients backward leaves in its leaves, and the grad_fn names of its outputs
(tests/layer_cases.py); module reprs and error messages, printed the same."""

import contextlib
import io
import warnings

import numpy as np
import pytest
from layer_cases import CASES

import autoviz

# The cases where autoviz's graph has different node names than PyTorch's, by decision:
# circular padding is built from slices and a concatenation (PyTorch writes into slices of
# a new tensor, a chain of CopySlices nodes). And where a slice assignment's CopySlices node
# is an output: its name() is "CopySlices", PyTorch's "torch::autograd::CopySlices".
NAMES_DIFFER = {"pads", "packed", "adaptive_log_softmax"}


def _flat(o):
    if isinstance(o, (tuple, list)):
        return [y for x in o for y in _flat(x)]
    return [o]


def run_case(name: str, engine: str):
    """(values, gradients, grad_fn names), or ("error", message)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if engine == "torch":
                import torch

                module, context = torch, contextlib.nullcontext()
            else:
                module, context = None, autoviz.as_torch()
            with context as aliased:
                out, leaves = CASES[name](module or aliased)
                outs = _flat(out)
                floats = [
                    o
                    for o in outs
                    if hasattr(o, "detach") and o.requires_grad and o.dtype.is_floating_point
                ]
                if floats and leaves:
                    total = sum((o * _weights(o, module or aliased)).sum() for o in floats)
                    total.backward()
        except Exception as error:
            return "error", f"{type(error).__name__}: {str(error).splitlines()[0]}"
    values = [o.detach().numpy().copy() if hasattr(o, "detach") else o for o in outs]
    grads = [None if leaf.grad is None else leaf.grad.numpy().copy() for leaf in leaves]
    names = [o.grad_fn.name() if getattr(o, "grad_fn", None) is not None else None for o in outs]
    return values, grads, names


def _weights(o, torch):
    """A fixed, uneven upstream gradient, so each output element counts differently."""
    data = np.cos(np.arange(o.numel())).reshape(tuple(o.shape))
    return torch.tensor(data.astype(np.float64 if o.dtype == torch.float64 else np.float32))


def _close(a, b) -> bool:
    return (
        a.shape == b.shape
        and a.dtype == b.dtype
        and np.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True)
    )


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_matches_pytorch(name):
    pytest.importorskip("torch")
    want, got = run_case(name, "torch"), run_case(name, "autoviz")
    if want[0] == "error" or got[0] == "error":
        assert got == want
        return
    (wv, wg, wn), (gv, gg, gn) = want, got
    assert len(gv) == len(wv)
    for i, (x, y) in enumerate(zip(wv, gv, strict=True)):
        if isinstance(x, np.ndarray):
            assert _close(x, y), f"output {i}: max difference {np.nanmax(np.abs(x - y))}"
        else:
            assert x == y, f"output {i}"
    for i, (x, y) in enumerate(zip(wg, gg, strict=True)):
        assert (x is None) == (y is None), f"gradient {i}"
        if x is not None:
            assert _close(x, y), f"gradient {i}: max difference {np.abs(x - y).max()}"
    if name not in NAMES_DIFFER:
        assert gn == wn


@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_runs_and_differentiates_on_autoviz_alone(name):
    result = run_case(name, "autoviz")
    if result[0] == "error":
        assert name in ("glu_dim_odd_error", "glu(0,){}"), result  # odd halving dimensions
        assert result[1].startswith("RuntimeError: Halving dimension must be even")
        return
    values, grads, _ = result
    assert values
    assert all(g is None or np.all(np.isfinite(g)) for g in grads)


MODULES = """
nn.GELU() nn.GELU('tanh') nn.SiLU() nn.ELU(0.5,True) nn.SELU() nn.CELU() nn.Softplus(2,10)
nn.Hardtanh() nn.ReLU6() nn.Hardswish() nn.Hardsigmoid() nn.Mish() nn.GLU() nn.LeakyReLU(0.2)
nn.PReLU(3) nn.RReLU() nn.Softsign() nn.Tanhshrink() nn.LogSigmoid() nn.Softmin(1)
nn.Softmax(dim=1) nn.Softmax2d() nn.LogSoftmax(1) nn.Softshrink() nn.Hardshrink()
nn.Threshold(0.1,20) nn.ReLU(True) nn.Dropout() nn.Dropout1d(0.2) nn.Dropout2d() nn.Dropout3d()
nn.AlphaDropout(0.1) nn.FeatureAlphaDropout() nn.Conv1d(2,3,3)
nn.Conv2d(2,4,3,stride=2,padding=1,bias=False)
nn.Conv2d(2,4,(3,2),dilation=2,groups=2,padding_mode='reflect') nn.Conv2d(2,4,3,padding='same')
nn.ConvTranspose2d(3,2,3,stride=2,output_padding=1) nn.Conv3d(1,2,2) nn.MaxPool2d(2)
nn.MaxPool2d(3,2,1,ceil_mode=True,return_indices=True) nn.MaxPool1d(2) nn.AvgPool2d(2)
nn.AvgPool1d(3,2,1) nn.AvgPool2d(3,count_include_pad=False,divisor_override=2)
nn.AdaptiveAvgPool2d((1,1)) nn.AdaptiveAvgPool2d(3) nn.AdaptiveMaxPool2d((2,None))
nn.AdaptiveAvgPool1d(4) nn.LPPool2d(2,3) nn.MaxUnpool2d(2) nn.MaxPool3d(2) nn.AvgPool3d(2)
nn.BatchNorm1d(3) nn.BatchNorm2d(4,momentum=None,affine=False) nn.BatchNorm3d(2)
nn.LayerNorm(5) nn.LayerNorm((2,3),elementwise_affine=False) nn.GroupNorm(2,4)
nn.InstanceNorm1d(3) nn.InstanceNorm2d(3,affine=True) nn.LocalResponseNorm(2) nn.RMSNorm(4)
nn.Embedding(10,3) nn.Embedding(10,3,padding_idx=0,max_norm=1.) nn.EmbeddingBag(10,3,mode='sum')
nn.Flatten() nn.Unflatten(1,(2,3)) nn.Identity() nn.Bilinear(2,3,4) nn.Linear(2,3)
nn.ZeroPad2d(1) nn.ConstantPad1d((1,2),3.5) nn.ReflectionPad2d(2) nn.ReplicationPad1d(1)
nn.CircularPad2d(1) nn.CosineSimilarity() nn.PairwiseDistance() nn.L1Loss()
nn.MSELoss(reduction='sum') nn.CrossEntropyLoss(label_smoothing=0.1) nn.HuberLoss()
nn.SmoothL1Loss() nn.KLDivLoss() nn.MarginRankingLoss() nn.TripletMarginLoss()
nn.CosineEmbeddingLoss() nn.HingeEmbeddingLoss() nn.PoissonNLLLoss() nn.GaussianNLLLoss()
nn.MultiMarginLoss() nn.MultiLabelMarginLoss() nn.MultiLabelSoftMarginLoss() nn.SoftMarginLoss()
nn.TripletMarginWithDistanceLoss() nn.RNN(7,4,nonlinearity='relu',bias=False)
nn.LSTM(7,4,num_layers=2,bidirectional=True,proj_size=2)
nn.GRU(7,4,2,batch_first=True,dropout=0.2,bidirectional=True) nn.LSTMCell(3,4)
nn.GRUCell(3,4,bias=False) nn.RNNCell(3,4,nonlinearity='relu') nn.PixelShuffle(2)
nn.PixelUnshuffle(2) nn.Upsample(scale_factor=2) nn.Upsample(size=4,mode='bilinear')
nn.UpsamplingNearest2d(scale_factor=2) nn.UpsamplingBilinear2d(scale_factor=2) nn.Fold((4,4),2)
nn.Unfold(2,stride=2) nn.ChannelShuffle(2)
""".split()  # noqa: SIM905

ERRORS = """
F.conv2d(torch.ones(1,2,5,5),torch.ones(3,4,3,3))
F.conv2d(torch.ones(1,2,5,5),torch.ones(3,2,7,7))
F.conv2d(torch.ones(1,2,5,5),torch.ones(3,2,3,3),padding='same',stride=2)
F.conv2d(torch.ones(1,2,5,5),torch.ones(3,2,3,3),padding='foo')
F.conv2d(torch.ones(5,5),torch.ones(3,2,3,3))
F.conv2d(torch.ones(1,2,5,5),torch.ones(3,1,3,3),groups=2)
F.conv2d(torch.ones(1,2,5,5),torch.ones(3,2,3,3),torch.ones(4))
F.conv2d(torch.ones(1,2,5,5).double(),torch.ones(3,2,3,3))
F.max_pool2d(torch.ones(1,2,5,5),3,padding=2) F.max_pool2d(torch.ones(1,2,5,5),7)
F.avg_pool2d(torch.ones(1,2,5,5),7) F.max_pool2d(torch.ones(5,5),2)
F.conv2d(torch.ones(1,2,5,5),torch.ones(3,2,3,3),stride=0)
F.conv_transpose2d(torch.ones(1,2,5,5),torch.ones(3,2,3,3))
F.glu(torch.ones(3,3)) F.pad(torch.ones(1,2,3,4),(3,2),mode='reflect')
F.pad(torch.ones(1,2,3,4),(1,)) F.pad(torch.ones(1,2,3,4),(1,1),mode='foo')
F.layer_norm(torch.ones(2,3),(4,)) F.group_norm(torch.ones(2,3,4),2)
nn.LSTM(3,4)(torch.ones(2,1,5)) nn.GRU(3,4)(torch.ones(2,1,3),torch.ones(2,1,4))
nn.RNN(3,4)(torch.ones(2,2,1,3)) nn.Conv2d(3,4,3,groups=2)
nn.LSTMCell(3,4)(torch.ones(2,5)) F.dropout(torch.ones(2),1.5)
F.embedding_bag(torch.ones(3),torch.ones(4,2))
F.grid_sample(torch.ones(1,1,2,2,2),torch.ones(1,2,2,2,3),mode='bicubic',align_corners=False)
F.grid_sample(torch.ones(1,1,2,2,2),torch.ones(1,2,2,2,2),align_corners=False)
F.grid_sample(torch.ones(1,1,2,2),torch.ones(1,2,2),align_corners=False)
F.grid_sample(torch.ones(1,1,2,2,2),torch.ones(2,2,2,2,3),align_corners=False)
F.grid_sample(torch.ones(1,1,0,2),torch.ones(1,2,2,2),align_corners=False)
F.grid_sample(torch.ones(1,1,2,2),torch.ones(1,2,2,2).double(),align_corners=False)
F.affine_grid(torch.ones(2,2,3),(2,3,4,5,6),align_corners=False)
F.affine_grid(torch.ones(2,3,4),[2,3,4],align_corners=False)
""".split()  # noqa: SIM905


def _printed(lines, engine: str) -> list:
    out = io.StringIO()
    source = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + "".join(
        f"try:\n    print(repr({line}))\nexcept Exception as e:\n"
        "    print(type(e).__name__, str(e).splitlines()[0])\n"
        for line in lines
    )
    with warnings.catch_warnings(), contextlib.redirect_stdout(out):
        warnings.simplefilter("ignore")
        context = contextlib.nullcontext() if engine == "torch" else autoviz.as_torch()
        with context:
            exec(compile(source, "<layers>", "exec"), {"__name__": "__layers__"})
    return out.getvalue().splitlines()


@pytest.mark.torch
@pytest.mark.parametrize("what", ["MODULES", "ERRORS"])
def test_reprs_and_errors_print_as_in_pytorch(what):
    pytest.importorskip("torch")
    lines = globals()[what]
    want, got = _printed(lines, "torch"), _printed(lines, "autoviz")
    assert got == want
