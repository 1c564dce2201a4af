"""Step-by-Step ch.5 style: hand-made filters, convolutions by hand, forward hooks capturing feature maps, filters "visualised" as numbers, backward hooks"""

import torch
import torch.nn as nn
import torch.nn.functional as F

single = torch.tensor(
    [
        [
            [
                [5, 0, 8, 7, 8, 1],
                [1, 9, 5, 0, 7, 7],
                [6, 0, 2, 4, 6, 6],
                [9, 7, 6, 6, 8, 4],
                [8, 3, 8, 5, 1, 3],
                [7, 2, 7, 0, 1, 0],
            ]
        ]
    ]
).float()
identity = torch.tensor([[[[0, 0, 0], [0, 1, 0], [0, 0, 0]]]]).float()
print(single.shape, identity.shape)
region = single[:, :, 0:3, 0:3]
print("region * identity sum:", (region * identity).sum())
print(F.conv2d(single, identity, stride=1))
print(F.conv2d(single, identity, stride=2))
conv = nn.Conv2d(in_channels=1, out_channels=1, kernel_size=3, stride=1, bias=False)
with torch.no_grad():
    conv.weight[0] = identity[0]
print(conv(single))
edge = torch.tensor([[[[0, 1, 0], [1, -4, 1], [0, 1, 0]]]]).float()
print("edge:\n", F.conv2d(single, edge))
print("padded (constant):\n", F.pad(single, pad=(1, 1, 1, 1), mode="constant", value=0)[0, 0, :2])
print("replicate:\n", F.pad(single, (1, 1, 1, 1), mode="replicate")[0, 0, :2])
print("reflect:\n", nn.ReflectionPad2d(1)(single)[0, 0, :2])
print("circular:\n", F.pad(single, (1, 1, 1, 1), mode="circular")[0, 0, :2])
print(nn.ZeroPad2d((1, 0, 2, 0))(single).shape, nn.ConstantPad2d(1, 3.0)(single)[0, 0, 0])
print(
    "padding_mode conv:",
    nn.Conv2d(1, 1, 3, padding=1, padding_mode="reflect", bias=False).padding_mode,
)
print("max pool 2:\n", F.max_pool2d(single, kernel_size=2))
print("max pool 3 stride 1:\n", nn.MaxPool2d(3, stride=1)(single))
print(
    "avg pool:\n",
    F.avg_pool2d(single, 2),
    F.avg_pool2d(single, 3, stride=2, padding=1, count_include_pad=False),
)
out, idx = F.max_pool2d(single, 2, return_indices=True)
print(idx, F.max_unpool2d(out, idx, 2))
print(
    "lp pool",
    F.lp_pool2d(single, 2, 2)[0, 0, 0],
    "adaptive",
    F.adaptive_avg_pool2d(single, (2, 3)),
    F.adaptive_max_pool2d(single, 1),
)
print(
    nn.Flatten()(single).shape,
    nn.Flatten(0, 2)(single).shape,
    nn.Unflatten(1, (2, 18))(nn.Flatten()(single)).shape,
)


# a small CNN like the book's "lines" classifier (diagonal / parallel)
def gen_img(start, target, fill=1, img_size=8):
    img = torch.zeros(img_size, img_size)
    if target == 0:  # horizontal / vertical lines
        if start > 0:
            img[start % img_size, :] = fill
        else:
            img[:, -start % img_size] = fill
    else:  # diagonal
        up = start > 0
        start = abs(start) % img_size
        for i in range(img_size):
            j = (start + i) % img_size if up else (start - i) % img_size
            img[i, j] = fill
    return img


torch.manual_seed(13)
starts = torch.randint(-7, 8, (40,))
targets = torch.randint(0, 2, (40,))
imgs = torch.stack(
    [gen_img(int(s) if s != 0 else 1, int(t)) for s, t in zip(starts, targets)]
).unsqueeze(1)
imgs = imgs + 0.05 * torch.randn_like(imgs)
print(imgs.shape, targets.float().mean())

torch.manual_seed(13)
model_cnn1 = nn.Sequential()
n_channels = 1
model_cnn1.add_module("conv1", nn.Conv2d(in_channels=1, out_channels=n_channels, kernel_size=3))
model_cnn1.add_module("relu1", nn.ReLU())
model_cnn1.add_module("maxp1", nn.MaxPool2d(kernel_size=2))
model_cnn1.add_module("flatten", nn.Flatten())
model_cnn1.add_module("fc1", nn.Linear(n_channels * 3 * 3, 10))
model_cnn1.add_module("relu2", nn.ReLU())
model_cnn1.add_module("fc2", nn.Linear(10, 1))
print(model_cnn1)
optimizer = torch.optim.SGD(model_cnn1.parameters(), lr=0.1)
loss_fn = nn.BCEWithLogitsLoss()
yf = targets.float().view(-1, 1)
for epoch in range(40):
    loss = loss_fn(model_cnn1(imgs), yf)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {loss.item():.6f}")
print("filter weights:\n", model_cnn1.conv1.weight.data.squeeze())
print("filter as numpy", model_cnn1.conv1.weight.detach().numpy().shape)

# hooks to capture outputs, as the book's attach_hooks / remove_hooks
visualization = {}
handles = {}
layer_names = {layer: name for name, layer in model_cnn1.named_modules()}


def hook_fn(layer, inputs, outputs):
    name = layer_names[layer]
    visualization[name] = outputs.detach().cpu().numpy()


for name, layer in model_cnn1.named_modules():
    if name in ["conv1", "relu1", "maxp1", "flatten", "fc1", "relu2", "fc2"]:
        handles[name] = layer.register_forward_hook(hook_fn)
print(list(handles.keys()), type(handles["conv1"]).__name__)
model_cnn1.eval()
with torch.no_grad():
    logits = model_cnn1(imgs[:6])
for k, v in visualization.items():
    print(f"{k:8s} {v.shape} {v.dtype} mean {v.mean():.6f}")
print("conv1 map of image 0:\n", torch.as_tensor(visualization["conv1"][0, 0]))
for h in handles.values():
    h.remove()
visualization.clear()
model_cnn1(imgs[:2])
print("after removing hooks", visualization)
print("predictions", (torch.sigmoid(logits) > 0.5).long().view(-1), targets[:6])
print("accuracy", ((model_cnn1(imgs) > 0).long().view(-1) == targets).float().mean())

# forward pre-hook that changes the input, forward hook that changes the output
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.eye(2))
    lin.bias.zero_()
h1 = lin.register_forward_pre_hook(lambda m, inp: (inp[0] * 2,))
h2 = lin.register_forward_hook(lambda m, inp, out: out + 100)
print(lin(torch.tensor([[1.0, 2.0]])))
h1.remove()
h2.remove()
print(lin(torch.tensor([[1.0, 2.0]])))

# backward hooks: gradients flowing through modules
grads = {}


def bhook(module, grad_input, grad_output):
    grads[type(module).__name__] = (
        tuple(None if g is None else tuple(g.shape) for g in grad_input),
        tuple(g.shape for g in grad_output),
        grad_output[0].abs().sum().item(),
    )


model_cnn1.train()
hs = [
    model_cnn1.fc2.register_full_backward_hook(bhook),
    model_cnn1.relu2.register_full_backward_hook(bhook),
]
out = loss_fn(model_cnn1(imgs[:4]), yf[:4])
out.backward()
for k, v in grads.items():
    print(k, v[0], v[1], round(v[2], 6))
for h in hs:
    h.remove()
t = torch.ones(3, requires_grad=True)
hh = t.register_hook(lambda g: print("tensor hook sees", g))
(t * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
hh.remove()

# filters of a bigger conv layer "visualised" as min/max per filter
torch.manual_seed(0)
conv2 = nn.Conv2d(3, 4, kernel_size=3)
print(
    conv2.weight.shape, conv2.weight.flatten(1).min(1).values, conv2.weight.flatten(1).max(1).values
)
w = conv2.weight.detach()
wn = (w - w.amin(dim=(1, 2, 3), keepdim=True)) / (
    w.amax(dim=(1, 2, 3), keepdim=True) - w.amin(dim=(1, 2, 3), keepdim=True)
)
print("normalised filter 0 channel 0:\n", wn[0, 0])
print(
    nn.Conv1d(2, 3, 3)(torch.randn(1, 2, 7)).shape,
    F.conv1d(torch.arange(6.0).view(1, 1, 6), torch.tensor([[[1.0, 0.0, -1.0]]])),
)
print(F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2))
print(nn.Upsample(scale_factor=2, mode="nearest")(torch.arange(4.0).view(1, 1, 2, 2)))
print(
    F.interpolate(
        torch.arange(4.0).view(1, 1, 2, 2), size=(3, 3), mode="bilinear", align_corners=True
    )
)
print(
    F.interpolate(
        torch.arange(4.0).view(1, 1, 2, 2), scale_factor=2, mode="bilinear", align_corners=False
    )
)
print(nn.PixelShuffle(2)(torch.arange(8.0).view(1, 4, 1, 2)))
print(
    nn.LeakyReLU(0.1)(torch.tensor([-2.0, 3.0])),
    nn.PReLU()(torch.tensor([-2.0, 3.0])),
    nn.ELU()(torch.tensor([-1.0])),
    nn.Hardtanh()(torch.tensor([-3.0, 0.5])),
    nn.Softplus()(torch.tensor([0.0])),
    nn.GELU()(torch.tensor([1.0])),
    nn.SiLU()(torch.tensor([1.0])),
    nn.Mish()(torch.tensor([1.0])),
)


# --- EECS 498 A3 style: naive convolution and pooling with loops vs the fast versions ---
def conv_forward_naive(x, w, b, conv_param):
    stride, pad = conv_param["stride"], conv_param["pad"]
    N, C, H, W = x.shape
    F_, _, HH, WW = w.shape
    xp = F.pad(x, (pad, pad, pad, pad))
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    out = torch.zeros(N, F_, H_out, W_out, dtype=x.dtype)
    for n in range(N):
        for f in range(F_):
            for i in range(H_out):
                for j in range(W_out):
                    patch = xp[n, :, i * stride : i * stride + HH, j * stride : j * stride + WW]
                    out[n, f, i, j] = (patch * w[f]).sum() + b[f]
    return out


def max_pool_forward_naive(x, pool_param):
    ph, pw, s = pool_param["pool_height"], pool_param["pool_width"], pool_param["stride"]
    N, C, H, W = x.shape
    Ho, Wo = 1 + (H - ph) // s, 1 + (W - pw) // s
    out = torch.zeros(N, C, Ho, Wo, dtype=x.dtype)
    for i in range(Ho):
        for j in range(Wo):
            out[:, :, i, j] = (
                x[:, :, i * s : i * s + ph, j * s : j * s + pw].reshape(N, C, -1).max(dim=2).values
            )
    return out


torch.manual_seed(0)
x_shape, w_shape = (2, 3, 4, 4), (3, 3, 4, 4)
x = torch.linspace(-0.1, 0.5, steps=2 * 3 * 4 * 4, dtype=torch.float64).reshape(x_shape)
w = torch.linspace(-0.2, 0.3, steps=3 * 3 * 4 * 4, dtype=torch.float64).reshape(w_shape)
b = torch.linspace(-0.1, 0.2, steps=3, dtype=torch.float64)
out = conv_forward_naive(x, w, b, {"stride": 2, "pad": 1})
print("naive conv", out.shape, out[0, 0])
print("matches F.conv2d:", torch.allclose(out, F.conv2d(x, w, b, stride=2, padding=1)))
xpool = torch.linspace(-0.3, 0.4, steps=2 * 3 * 4 * 4, dtype=torch.float64).reshape(2, 3, 4, 4)
mp = max_pool_forward_naive(xpool, {"pool_width": 2, "pool_height": 2, "stride": 2})
print("naive pool", mp[0, 0], torch.equal(mp, F.max_pool2d(xpool, 2, 2)))

# FastConv: nn.Conv2d with copied weights, backward through autograd, checked numerically
x = torch.randn(2, 3, 6, 6, dtype=torch.float64, requires_grad=True)
w = torch.randn(4, 3, 3, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(4, dtype=torch.float64, requires_grad=True)
layer = nn.Conv2d(3, 4, 3, stride=1, padding=1).double()
layer.weight = nn.Parameter(w.detach().clone())
layer.bias = nn.Parameter(b.detach().clone())
tx = x.detach().clone().requires_grad_()
out_fast = layer(tx)
dout = torch.randn_like(out_fast)
out_fast.backward(dout)
out_ref = F.conv2d(x, w, b, padding=1)
out_ref.backward(dout)
print(
    "fast conv matches:",
    torch.allclose(out_fast, out_ref),
    torch.allclose(tx.grad, x.grad),
    torch.allclose(layer.weight.grad, w.grad),
    torch.allclose(layer.bias.grad, b.grad),
)
print(
    "gradcheck conv2d:",
    torch.autograd.gradcheck(
        lambda a, k: F.conv2d(a, k, stride=2, padding=1),
        (
            torch.randn(1, 2, 5, 5, dtype=torch.float64, requires_grad=True),
            torch.randn(3, 2, 3, 3, dtype=torch.float64, requires_grad=True),
        ),
    ),
)
print(
    "gradcheck max_pool2d:",
    torch.autograd.gradcheck(
        lambda a: F.max_pool2d(a, 2),
        (torch.randn(1, 2, 4, 4, dtype=torch.float64, requires_grad=True),),
    ),
)


# Kaiming initialiser as written in the assignment
def kaiming_initializer(Din, Dout, K=None, relu=True, dtype=torch.float32):
    gain = 2.0 if relu else 1.0
    if K is None:
        weight = torch.randn(Din, Dout, dtype=dtype) * (gain / Din) ** 0.5
    else:
        weight = torch.randn(Din, Dout, K, K, dtype=dtype) * (gain / (Din * K * K)) ** 0.5
    return weight


torch.manual_seed(1)
for Din, Dout, K in [(50, 60, None), (50, 60, 3), (3, 8, 5)]:
    wk = kaiming_initializer(Din, Dout, K)
    print(f"kaiming {Din},{Dout},{K}: shape {tuple(wk.shape)} std {wk.std().item():.6f}")
# spatial batchnorm via reshape == BatchNorm2d
xs = torch.randn(3, 4, 5, 5) * 4 + 2
sbn = xs.permute(0, 2, 3, 1).reshape(-1, 4)
sbn = (
    ((sbn - sbn.mean(0)) / (sbn.var(0, unbiased=False) + 1e-5).sqrt())
    .reshape(3, 5, 5, 4)
    .permute(0, 3, 1, 2)
)
print(
    "spatial bn via reshape:",
    torch.allclose(sbn, nn.BatchNorm2d(4)(xs), atol=1e-5),
    sbn.is_contiguous(),
)

# hooks and in-place activations: what a captured feature map holds afterwards
torch.manual_seed(21)
feat = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(inplace=True), nn.Conv2d(2, 1, 1))
captured = {}
hk = feat[0].register_forward_hook(lambda m, i, o: captured.__setitem__("conv", o.detach()))
res = feat(imgs[:2])
print("captured conv output min (after the in-place ReLU ran):", captured["conv"].min().item())
print("negative entries captured:", (captured["conv"] < 0).sum().item())
hk.remove()
