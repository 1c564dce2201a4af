"""Layer cases for tests/test_layers.py: each builds its inputs from seeded numpy arrays,
runs PyTorch-API code on the `torch` module it is given (real torch, or autoviz inside
as_torch()) and returns (outputs, leaves whose gradients to compare)."""

import numpy as np


def arr(shape, seed, kind="normal"):
    r = np.random.default_rng(seed)
    if kind == "prob":
        return r.uniform(0.05, 0.95, shape).astype(np.float32)
    if kind == "sign":
        return np.where(r.random(shape) > 0.5, 1.0, -1.0).astype(np.float32)
    if kind == "binary":
        return (r.random(shape) > 0.5).astype(np.float32)
    return r.standard_normal(shape).astype(np.float32)


CASES = {}


def case(name):
    def reg(f):
        CASES[name] = f
        return f

    return reg


def act(fname, *args, **kw):
    def f(torch):
        x = torch.tensor(arr((3, 4), 1) * 3, requires_grad=True)
        y = getattr(torch.nn.functional, fname)(x, *args, **kw)
        return y, [x]

    return f


for name, args, kw in [
    ("gelu", (), {}),
    ("gelu", (), {"approximate": "tanh"}),
    ("silu", (), {}),
    ("elu", (), {}),
    ("elu", (0.5,), {}),
    ("selu", (), {}),
    ("celu", (), {"alpha": 2.0}),
    ("softplus", (), {}),
    ("softplus", (), {"beta": 2, "threshold": 1}),
    ("hardtanh", (), {}),
    ("hardtanh", (-2.0, 0.5), {}),
    ("relu6", (), {}),
    ("hardswish", (), {}),
    ("hardsigmoid", (), {}),
    ("mish", (), {}),
    ("glu", (), {}),
    ("glu", (0,), {}),
    ("leaky_relu", (0.2,), {}),
    ("rrelu", (), {}),
    ("softsign", (), {}),
    ("tanhshrink", (), {}),
    ("logsigmoid", (), {}),
    ("softmin", (1,), {}),
    ("softshrink", (), {}),
    ("hardshrink", (1.0,), {}),
    ("threshold", (0.5, -1.0), {}),
    ("relu", (), {}),
    ("sigmoid", (), {}),
    ("tanh", (), {}),
    ("log_softmax", (1,), {}),
    ("softmax", (0,), {}),
    ("normalize", (), {}),
    ("normalize", (1, 0), {}),
]:
    CASES[f"{name}{args}{kw}".replace(" ", "")] = act(name, *args, **kw)


@case("glu_dim_odd_error")
def _(torch):
    return torch.nn.functional.glu(torch.ones(3, 3)), []


@case("prelu")
def _(torch):
    x = torch.tensor(arr((2, 3, 4), 2), requires_grad=True)
    w = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
    return torch.nn.functional.prelu(x, w), [x, w]


@case("rrelu_train")
def _(torch):
    torch.manual_seed(3)
    x = torch.tensor(arr((3, 5), 3), requires_grad=True)
    return torch.nn.functional.rrelu(x, training=True), [x]


def loss(fname, shapes, kinds=None, nograd=(), **kw):
    def f(torch):
        ts = []
        for i, s in enumerate(shapes):
            if isinstance(s, list):
                ts.append(torch.tensor(s))
                continue
            kind = (kinds or {}).get(i, "normal")
            ts.append(
                torch.tensor(
                    arr(s, 10 + i, kind), requires_grad=i not in nograd and kind == "normal"
                )
            )
        y = getattr(torch.nn.functional, fname)(*ts, **kw)
        return y, [t for t in ts if t.requires_grad]

    return f


for fname, shapes, kinds, nograd, kw in [
    ("smooth_l1_loss", [(3, 4), (3, 4)], None, (), {}),
    ("smooth_l1_loss", [(3, 4), (3, 4)], None, (), {"beta": 0.5, "reduction": "sum"}),
    ("huber_loss", [(3, 4), (3, 4)], None, (), {"delta": 0.7}),
    ("l1_loss", [(3, 4), (3, 4)], None, (), {}),
    ("mse_loss", [(3, 4), (3, 4)], None, (), {"reduction": "none"}),
    ("kl_div", [(3, 4), (3, 4)], {1: "prob"}, (), {"reduction": "batchmean"}),
    ("kl_div", [(3, 4), (3, 4)], None, (1,), {"reduction": "sum", "log_target": True}),
    ("kl_div", [(3, 4), (3, 4)], {1: "prob"}, (), {}),
    ("binary_cross_entropy", [(3, 4), (3, 4)], {0: "prob", 1: "binary"}, (), {}),
    ("binary_cross_entropy_with_logits", [(3, 4), (3, 4)], {1: "binary"}, (), {}),
    ("margin_ranking_loss", [(5,), (5,), (5,)], {2: "sign"}, (), {"margin": 0.3}),
    ("cosine_embedding_loss", [(3, 4), (3, 4), (3,)], {2: "sign"}, (), {"margin": 0.1}),
    ("triplet_margin_loss", [(3, 4), (3, 4), (3, 4)], None, (), {}),
    ("triplet_margin_loss", [(3, 4), (3, 4), (3, 4)], None, (), {"swap": True, "p": 1}),
    ("hinge_embedding_loss", [(3, 4), (3, 4)], {1: "sign"}, (), {}),
    (
        "multilabel_margin_loss",
        [(3, 4), [[3, 0, -1, 1], [1, 2, -1, 0], [0, -1, 0, 0]]],
        None,
        (),
        {},
    ),
    ("multilabel_soft_margin_loss", [(3, 4), (3, 4)], {1: "binary"}, (), {}),
    ("multi_margin_loss", [(3, 4), [1, 0, 3]], None, (), {}),
    (
        "multi_margin_loss",
        [(3, 4), [1, 0, 3]],
        None,
        (),
        {"p": 2, "margin": 0.5, "reduction": "none"},
    ),
    ("soft_margin_loss", [(3, 4), (3, 4)], {1: "sign"}, (), {}),
    ("poisson_nll_loss", [(3, 4), (3, 4)], {1: "prob"}, (), {}),
    (
        "poisson_nll_loss",
        [(3, 4), [[1.0, 2.0, 3.0, 0.0], [4.0, 1.0, 0.0, 2.0], [1.0, 1.0, 5.0, 2.0]]],
        None,
        (),
        {"log_input": False, "full": True},
    ),
    ("gaussian_nll_loss", [(3, 4), (3, 4), (3, 4)], {2: "prob"}, (), {}),
    ("cross_entropy", [(3, 4), [1, 0, 3]], None, (), {"label_smoothing": 0.1}),
    ("cross_entropy", [(3, 4), [1, -100, 3]], None, (), {"label_smoothing": 0.2}),
    ("cross_entropy", [(3, 4), (3, 4)], {1: "prob"}, (), {"label_smoothing": 0.2}),
    ("nll_loss", [(3, 4), [1, 0, 3]], None, (), {}),
    ("cosine_similarity", [(3, 4), (3, 4)], None, (), {}),
    ("pairwise_distance", [(3, 4), (3, 4)], None, (), {}),
    ("pdist", [(4, 3)], None, (), {}),
]:
    CASES[f"{fname}{kw}"] = loss(fname, shapes, kinds, nograd, **kw)


@case("layer_norm")
def _(torch):
    x = torch.tensor(arr((2, 3, 4), 4), requires_grad=True)
    w = torch.tensor(arr((3, 4), 5), requires_grad=True)
    b = torch.tensor(arr((3, 4), 6), requires_grad=True)
    return torch.nn.functional.layer_norm(x, (3, 4), w, b), [x, w, b]


@case("group_norm")
def _(torch):
    x = torch.tensor(arr((2, 4, 3, 2), 4), requires_grad=True)
    w = torch.tensor(arr((4,), 5), requires_grad=True)
    b = torch.tensor(arr((4,), 6), requires_grad=True)
    return torch.nn.functional.group_norm(x, 2, w, b), [x, w, b]


@case("instance_norm_module")
def _(torch):
    torch.manual_seed(0)
    m = torch.nn.InstanceNorm2d(3, affine=True, track_running_stats=True)
    x = torch.tensor(arr((2, 3, 4, 4), 4), requires_grad=True)
    y = m(x)
    return (y, m.running_mean, m.running_var), [x, m.weight, m.bias]


@case("batchnorm2d_train_eval")
def _(torch):
    m = torch.nn.BatchNorm2d(3)
    x = torch.tensor(arr((4, 3, 5, 5), 4), requires_grad=True)
    y = m(x)
    m.eval()
    z = m(x)
    return (y, z, m.running_mean, m.running_var, m.num_batches_tracked), [x, m.weight, m.bias]


@case("local_response_norm")
def _(torch):
    x = torch.tensor(arr((2, 5, 4), 4), requires_grad=True)
    return torch.nn.functional.local_response_norm(x, 3), [x]


@case("rms_norm")
def _(torch):
    x = torch.tensor(arr((2, 5, 4), 4), requires_grad=True)
    return torch.nn.functional.rms_norm(x, (4,)), [x]


@case("dropouts")
def _(torch):
    torch.manual_seed(5)
    F = torch.nn.functional
    x = torch.tensor(arr((2, 3, 4, 4), 4), requires_grad=True)
    outs = (
        F.dropout(x, 0.3),
        F.dropout2d(x, 0.5),
        F.dropout1d(x[0], 0.5),
        F.alpha_dropout(x, 0.2, True),
        F.feature_alpha_dropout(x, 0.2, True),
        F.dropout3d(x, 0.5),
    )
    return outs, [x]


@case("embedding_bag")
def _(torch):
    w = torch.tensor(arr((10, 3), 4), requires_grad=True)
    F = torch.nn.functional
    i = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    o = torch.tensor([0, 2, 2, 5])
    return (
        F.embedding_bag(i, w, o),
        F.embedding_bag(i, w, o, mode="sum", per_sample_weights=torch.tensor(arr((8,), 1))),
        F.embedding_bag(i, w, o, mode="max"),
        F.embedding_bag(i.view(2, 4), w),
    ), [w]


@case("bilinear")
def _(torch):
    a = torch.tensor(arr((3, 2), 1), requires_grad=True)
    b = torch.tensor(arr((3, 4), 2), requires_grad=True)
    w = torch.tensor(arr((5, 2, 4), 3), requires_grad=True)
    c = torch.tensor(arr((5,), 4), requires_grad=True)
    return torch.nn.functional.bilinear(a, b, w, c), [a, b, w, c]


@case("pads")
def _(torch):
    F = torch.nn.functional
    x = torch.tensor(arr((1, 2, 4, 5), 1), requires_grad=True)
    return (
        F.pad(x, (1, 2)),
        F.pad(x, (1, 2, 2, 0), value=3.0),
        F.pad(x, (-1, 2)),
        F.pad(x, (2, 1, 1, 3), mode="reflect"),
        F.pad(x, (2, 1, 1, 3), mode="replicate"),
        F.pad(x, (2, 1, 1, 3), mode="circular"),
        F.pad(x[0], (3, 3), mode="reflect"),
    ), [x]


@case("conv_modules")
def _(torch):
    torch.manual_seed(0)
    nn = torch.nn
    x = torch.tensor(arr((2, 3, 8, 8), 1), requires_grad=True)
    mods = [
        nn.Conv2d(3, 4, 3),
        nn.Conv2d(3, 6, 3, stride=2, padding=1, groups=3, bias=False),
        nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect"),
        nn.Conv2d(3, 4, 4, padding="same", padding_mode="replicate"),
        nn.Conv2d(3, 4, 3, padding=2, padding_mode="circular", dilation=2),
        nn.ConvTranspose2d(3, 2, 3, stride=2),
    ]
    outs = tuple(m(x) for m in mods)
    return (*outs, mods[5](x, output_size=(18, 18))), [x] + [
        p for m in mods for p in m.parameters()
    ]


@case("conv1d_3d_modules")
def _(torch):
    torch.manual_seed(1)
    nn = torch.nn
    x = torch.tensor(arr((2, 3, 9), 1), requires_grad=True)
    v = torch.tensor(arr((1, 2, 4, 5, 6), 1), requires_grad=True)
    mods = [
        nn.Conv1d(3, 4, 3),
        nn.ConvTranspose1d(3, 2, 3, stride=2),
        nn.Conv3d(2, 3, 2),
        nn.ConvTranspose3d(2, 1, 2),
    ]
    return (mods[0](x), mods[1](x), mods[2](v), mods[3](v)), [x, v] + [
        p for m in mods for p in m.parameters()
    ]


@case("pool_modules")
def _(torch):
    nn = torch.nn
    x = torch.tensor(arr((2, 3, 7, 7), 1), requires_grad=True)
    mods = [
        nn.MaxPool2d(2),
        nn.MaxPool2d(3, 2, 1, ceil_mode=True),
        nn.AvgPool2d(3, 2, 1, count_include_pad=False),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.AdaptiveAvgPool2d(3),
        nn.AdaptiveMaxPool2d((2, 3)),
        nn.LPPool2d(2, 2),
        nn.Flatten(),
        nn.Unflatten(1, (3, 1)),
        nn.AdaptiveAvgPool2d((None, 2)),
    ]
    return tuple(m(x) for m in mods), [x]


@case("pool_indices_unpool")
def _(torch):
    nn = torch.nn
    x = torch.tensor(arr((2, 3, 6, 6), 1), requires_grad=True)
    v, i = nn.MaxPool2d(2, return_indices=True)(x)
    return (v, i, nn.MaxUnpool2d(2)(v, i)), [x]


@case("lazy_and_misc_modules")
def _(torch):
    torch.manual_seed(2)
    nn = torch.nn
    x = torch.tensor(arr((2, 3, 6, 6), 1))
    m = nn.Sequential(
        nn.LazyConv2d(4, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(5), nn.LazyBatchNorm1d()
    )
    y = m(x)
    return (y, repr(m)), []


@case("cnn_seeded")
def _(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(4, 8, 3),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.3),
        nn.Linear(8, 3),
    )
    x = torch.randn(5, 1, 8, 8)
    y = torch.tensor([0, 1, 2, 1, 0])
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return (*tuple(losses), model(x), repr(model)), list(model.parameters())


# -- recurrent layers ---------------------------------------------------------------------
def recurrent_case(mode: str, options: dict):
    """A case running a mode layer (3 inputs, 4 hidden) with options over 5 steps of 2."""

    def f(torch):
        torch.manual_seed(0)
        kw = dict(options)
        dt = kw.pop("dtype", None)
        m = getattr(torch.nn, mode)(3, 4, **kw)
        data = arr((5, 2, 3), 1)
        if dt:
            m, data = m.double(), data.astype("float64")
        x = torch.tensor(data, requires_grad=True)
        out, h = m(x)
        hs = h if isinstance(h, tuple) else (h,)
        return (out, *hs, repr(m), [n for n, _ in m.named_parameters()]), [x, *m.parameters()]

    return f


for mode in ("RNN", "LSTM", "GRU"):
    for options in (
        {},
        {"num_layers": 2},
        {"bidirectional": True},
        {"batch_first": True},
        {"num_layers": 2, "bidirectional": True, "dropout": 0.3},
        {"bias": False},
        {"dtype": "float64"},
    ):
        CASES[f"{mode}{options}"] = recurrent_case(mode, options)


@case("lstm_h0_unbatched_proj")
def _(torch):
    torch.manual_seed(1)
    m = torch.nn.LSTM(3, 4, proj_size=2)
    x = torch.tensor(arr((5, 3), 1), requires_grad=True)
    h0 = torch.tensor(arr((1, 2), 2), requires_grad=True)
    c0 = torch.tensor(arr((1, 4), 3), requires_grad=True)
    out, (h, c) = m(x, (h0, c0))
    return (out, h, c), [x, h0, c0, *list(m.parameters())]


@case("gru_h0")
def _(torch):
    torch.manual_seed(1)
    m = torch.nn.GRU(3, 4, 2)
    x = torch.tensor(arr((5, 2, 3), 1), requires_grad=True)
    h0 = torch.tensor(arr((2, 2, 4), 2), requires_grad=True)
    out, h = m(x, h0)
    return (out, h), [x, h0, *list(m.parameters())]


@case("cells")
def _(torch):
    torch.manual_seed(2)
    nn = torch.nn
    x = torch.tensor(arr((3, 2, 3), 1), requires_grad=True)
    r, lstm, g, rr = (
        nn.RNNCell(3, 4),
        nn.LSTMCell(3, 4),
        nn.GRUCell(3, 4),
        nn.RNNCell(3, 4, nonlinearity="relu", bias=False),
    )
    h = None
    hc = None
    hg = None
    outs = []
    for t in range(3):
        h = r(x[t], h)
        hc = lstm(x[t], hc)
        hg = g(x[t], hg)
        outs += [h, hc[0], hc[1], hg, rr(x[t])]
    outs.append(lstm(x[0, 0]))
    return (*tuple(outs), repr(r), repr(rr)), [x] + [
        p for m in (r, lstm, g, rr) for p in m.parameters()
    ]


@case("packed")
def _(torch):
    torch.manual_seed(3)
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

    x = torch.tensor(arr((4, 3, 2), 1), requires_grad=True)
    outs = []
    for mode in ("LSTM", "GRU", "RNN"):
        m = getattr(torch.nn, mode)(2, 3, bidirectional=True)
        p = pack_padded_sequence(x, torch.tensor([2, 4, 1]), enforce_sorted=False)
        o, h = m(p)
        pad, lengths = pad_packed_sequence(o, batch_first=True)
        outs += [o.data, pad, lengths, *list(h if isinstance(h, tuple) else (h,))]
    seqs = [torch.tensor(arr((n, 2), n), requires_grad=True) for n in (3, 1, 2)]
    outs.append(pad_sequence(seqs, batch_first=True))
    return tuple(outs), [x, *seqs]


# -- vision --------------------------------------------------------------------------------------
def vision_case(call, shape, seed=1):
    def f(torch):
        x = torch.tensor(arr(shape, seed), requires_grad=True)
        return call(torch, x), [x]

    return f


for label, call, shape in [
    ("pixel_shuffle", lambda t, x: t.nn.functional.pixel_shuffle(x, 2), (2, 8, 3, 2)),
    ("pixel_unshuffle", lambda t, x: t.nn.PixelUnshuffle(2)(x), (2, 2, 4, 6)),
    ("channel_shuffle", lambda t, x: t.nn.ChannelShuffle(3)(x), (2, 6, 2, 2)),
    (
        "unfold",
        lambda t, x: t.nn.functional.unfold(x, (2, 3), dilation=1, padding=1, stride=2),
        (2, 3, 5, 6),
    ),
    ("fold", lambda t, x: t.nn.Fold((4, 5), 2, stride=1)(x), (2, 12, 12)),
    (
        "unfold_fold",
        lambda t, x: t.nn.functional.fold(
            t.nn.functional.unfold(x, 3, padding=1), (4, 4), 3, padding=1
        ),
        (1, 2, 4, 4),
    ),
    ("nearest2d", lambda t, x: t.nn.functional.interpolate(x, scale_factor=2), (1, 2, 3, 4)),
    ("nearest2d_size", lambda t, x: t.nn.functional.interpolate(x, size=(5, 7)), (1, 2, 3, 4)),
    ("nearest1d_frac", lambda t, x: t.nn.functional.interpolate(x, scale_factor=1.7), (1, 2, 5)),
    (
        "nearest_exact",
        lambda t, x: t.nn.functional.interpolate(x, size=(7, 3), mode="nearest-exact"),
        (1, 2, 3, 4),
    ),
    (
        "nearest3d",
        lambda t, x: t.nn.functional.interpolate(x, scale_factor=(2, 1, 3)),
        (1, 1, 2, 3, 2),
    ),
    ("linear", lambda t, x: t.nn.functional.interpolate(x, size=9, mode="linear"), (1, 2, 4)),
    (
        "linear_corners",
        lambda t, x: t.nn.functional.interpolate(x, size=9, mode="linear", align_corners=True),
        (1, 2, 4),
    ),
    (
        "bilinear",
        lambda t, x: t.nn.functional.interpolate(x, scale_factor=2, mode="bilinear"),
        (1, 2, 3, 4),
    ),
    (
        "bilinear_down",
        lambda t, x: t.nn.functional.interpolate(
            x, size=(2, 3), mode="bilinear", align_corners=True
        ),
        (1, 2, 5, 7),
    ),
    ("bilinear_module", lambda t, x: t.nn.UpsamplingBilinear2d(scale_factor=2)(x), (1, 2, 3, 3)),
    (
        "bicubic",
        lambda t, x: t.nn.functional.interpolate(x, size=(5, 6), mode="bicubic"),
        (1, 2, 3, 4),
    ),
    (
        "trilinear",
        lambda t, x: t.nn.functional.interpolate(x, scale_factor=2, mode="trilinear"),
        (1, 1, 2, 3, 2),
    ),
    ("area", lambda t, x: t.nn.functional.interpolate(x, size=(2, 3), mode="area"), (1, 2, 4, 6)),
    (
        "upsample_module",
        lambda t, x: t.nn.Upsample(scale_factor=3, mode="nearest")(x),
        (1, 2, 2, 2),
    ),
]:
    CASES[f"vision_{label}"] = vision_case(call, shape)


# -- attention and transformers ------------------------------------------------------------------
@case("sdpa")
def _(torch):
    F = torch.nn.functional
    q = torch.tensor(arr((2, 3, 4, 8), 1), requires_grad=True)
    k = torch.tensor(arr((2, 3, 5, 8), 2), requires_grad=True)
    v = torch.tensor(arr((2, 3, 5, 8), 3), requires_grad=True)
    mask = torch.tensor(arr((4, 5), 4) > -0.5)
    causal = F.scaled_dot_product_attention(q, k[:, :, :4], v[:, :, :4], is_causal=True)
    return (
        F.scaled_dot_product_attention(q, k, v),
        F.scaled_dot_product_attention(q, k, v, attn_mask=mask),
        causal,
    ), [q, k, v]


@case("multihead_attention")
def _(torch):
    torch.manual_seed(4)
    mha = torch.nn.MultiheadAttention(8, 2)
    x = torch.tensor(arr((4, 2, 8), 1), requires_grad=True)
    mem = torch.tensor(arr((5, 2, 8), 2), requires_grad=True)
    out, w = mha(x, x, x)
    out2, w2 = mha(x, mem, mem, need_weights=True, average_attn_weights=False)
    out3, _ = mha(
        x, mem, mem, need_weights=False, key_padding_mask=torch.tensor([[False] * 4 + [True]] * 2)
    )
    causal = torch.nn.Transformer.generate_square_subsequent_mask(4)
    out4, w4 = mha(x, x, x, attn_mask=causal)
    return (out, w, out2, w2, out3, out4, w4, causal, repr(mha)), [x, mem, *mha.parameters()]


@case("multihead_attention_kdim_batch_first")
def _(torch):
    torch.manual_seed(5)
    mha = torch.nn.MultiheadAttention(
        6, 3, kdim=4, vdim=5, batch_first=True, add_bias_kv=True, add_zero_attn=True
    )
    q = torch.tensor(arr((2, 3, 6), 1), requires_grad=True)
    k = torch.tensor(arr((2, 4, 4), 2), requires_grad=True)
    v = torch.tensor(arr((2, 4, 5), 3), requires_grad=True)
    out, w = mha(q, k, v)
    return (out, w), [q, k, v, *mha.parameters()]


@case("transformer_encoder")
def _(torch):
    torch.manual_seed(6)
    layer = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    enc = torch.nn.TransformerEncoder(layer, 2)
    pre = torch.nn.TransformerEncoderLayer(
        8, 2, 16, dropout=0.0, norm_first=True, activation="gelu", batch_first=True
    )
    x = torch.tensor(arr((5, 2, 8), 1), requires_grad=True)
    mask = torch.nn.Transformer.generate_square_subsequent_mask(5)
    return (enc(x), enc(x, mask=mask), pre(x.transpose(0, 1)), repr(layer)), [
        x,
        *enc.parameters(),
        *pre.parameters(),
    ]


@case("transformer")
def _(torch):
    torch.manual_seed(7)
    model = torch.nn.Transformer(
        d_model=8,
        nhead=2,
        num_encoder_layers=1,
        num_decoder_layers=1,
        dim_feedforward=16,
        dropout=0.0,
    )
    src = torch.tensor(arr((6, 2, 8), 1), requires_grad=True)
    tgt = torch.tensor(arr((4, 2, 8), 2), requires_grad=True)
    out = model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(4))
    return (out,), [src, tgt, *model.parameters()]


@case("ctc_loss")
def _(torch):
    logits = torch.tensor(arr((6, 2, 4), 1), requires_grad=True)
    log_probs = logits.log_softmax(2)
    targets = torch.tensor([[1, 2, 2], [3, 1, 0]])
    lengths_in, lengths_target = torch.tensor([6, 5]), torch.tensor([3, 2])
    outs = [
        torch.nn.functional.ctc_loss(log_probs, targets, lengths_in, lengths_target, reduction=r)
        for r in ("mean", "sum", "none")
    ]
    flat = torch.nn.CTCLoss(blank=0, zero_infinity=True)(
        log_probs, torch.tensor([1, 2, 2, 3, 1]), lengths_in, lengths_target
    )
    return (*outs, flat), [logits]


@case("prune")
def _(torch):
    import torch.nn.utils.prune as prune

    torch.manual_seed(1)
    m = torch.nn.Linear(4, 3)
    prune.l1_unstructured(m, "weight", amount=0.5)
    conv = torch.nn.Conv2d(2, 4, 2)
    prune.ln_structured(conv, "weight", amount=0.5, n=2, dim=0)
    x = torch.tensor(arr((2, 4), 2), requires_grad=True)
    names = [n for n, _ in m.named_parameters()] + [n for n, _ in m.named_buffers()]
    return (m(x), m.weight_mask, conv.weight_mask, repr(names)), [x, m.weight_orig]


@case("spatial_transformer")
def _(torch):
    F = torch.nn.functional
    theta = torch.tensor(
        np.array([[[1.1, 0.3, 0.1], [-0.2, 0.9, 0.05]]] * 2, np.float32) + arr((2, 2, 3), 1) * 0.3,
        requires_grad=True,
    )
    x = torch.tensor(arr((2, 3, 5, 6), 2), requires_grad=True)
    outs = []
    for align in (False, True):
        grid = F.affine_grid(theta, (2, 3, 4, 7), align_corners=align)
        outs.append(grid)
        for mode in ("bilinear", "nearest", "bicubic"):
            for padding in ("zeros", "border", "reflection"):
                outs.append(
                    F.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=align)
                )
    return tuple(outs), [theta, x]


@case("volumetric_spatial_transformer")
def _(torch):
    F = torch.nn.functional
    theta = torch.tensor(
        np.array(
            [[[1.1, 0.3, 0.1, 0.0], [-0.2, 0.9, 0.05, 0.1], [0.1, 0.0, 1.2, -0.1]]] * 2
        ).astype(np.float32)
        + arr((2, 3, 4), 3) * 0.3,
        requires_grad=True,
    )
    x = torch.tensor(arr((2, 2, 4, 5, 3), 4), requires_grad=True)
    outs = []
    for align in (False, True):
        grid = F.affine_grid(theta, (2, 2, 3, 4, 5), align_corners=align)
        outs.append(grid)
        for mode in ("bilinear", "nearest"):
            for padding in ("zeros", "border", "reflection"):
                outs.append(
                    F.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=align)
                )
    return tuple(outs), [theta, x]


@case("adaptive_log_softmax")
def _(torch):
    torch.manual_seed(0)
    asm = torch.nn.AdaptiveLogSoftmaxWithLoss(16, 20, cutoffs=[4, 10], div_value=2.0)
    x = torch.tensor(arr((7, 16), 1), requires_grad=True)
    out = asm(x, torch.tensor([0, 3, 5, 9, 12, 19, 4]))
    return (out.output, out.loss, asm.log_prob(x), asm.predict(x), repr(asm)), [
        x,
        *asm.parameters(),
    ]


@case("fractional_max_pool")
def _(torch):
    F = torch.nn.functional
    torch.manual_seed(3)
    x = torch.tensor(arr((2, 3, 9, 10), 1), requires_grad=True)
    v = torch.tensor(arr((1, 2, 6, 7, 8), 2), requires_grad=True)
    y, index = F.fractional_max_pool2d(x, (2, 3), output_size=(5, 3), return_indices=True)
    pooled = torch.nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.6))(x)
    volume = torch.nn.FractionalMaxPool3d(2, output_size=(3, 4, 5))(v)
    return (y, index, pooled, volume), [x, v]
