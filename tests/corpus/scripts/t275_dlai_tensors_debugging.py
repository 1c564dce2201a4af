"""DeepLearning.AI "PyTorch for Deep Learning" style lab: tensors and model debugging."""

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(2024)

# --- creating tensors ---
a = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(a, a.dtype, a.shape, a.ndim, a.numel(), a.device)
b = torch.tensor([1.0, 2.5])
print(b.dtype, torch.get_default_dtype())
n = np.array([[1.0, 2.0], [3.0, 4.0]])
t = torch.from_numpy(n)
print("from_numpy:", t, t.dtype)
n[0, 0] = 100.0
print("shares memory:", t[0, 0].item())
print("as_tensor float32:", torch.as_tensor(n, dtype=torch.float32))
print(
    "zeros/ones/full:", torch.zeros(2, 2), torch.ones(3, dtype=torch.int32), torch.full((2,), 7.0)
)
print("arange/linspace:", torch.arange(0, 1, 0.25), torch.linspace(0, 1, 5))
print("logspace:", torch.logspace(0, 2, 3))
print("eye/like:", torch.eye(2, 3), torch.zeros_like(a), torch.ones_like(b))
print("rand/randn/randint:", torch.rand(2), torch.randn(2), torch.randint(0, 10, (3,)))
print("empty shape:", torch.empty(2, 3).shape)

# --- dtypes and casting ---
i = torch.tensor([1, 2, 3])
f = i.float()
print(i.dtype, f.dtype, i.to(torch.float64).dtype, f.long().dtype, f.type(torch.int16).dtype)
print("int + float:", (i + f).dtype, "int / int:", (i / 2).dtype, "int // int:", (i // 2).dtype)
print("bool:", (i > 1), (i > 1).dtype, (i > 1).sum(), (i > 1).float().mean())
print("half:", torch.tensor([1.0, 2.0], dtype=torch.float16) * 3)
print("uint8 wrap:", torch.tensor([250], dtype=torch.uint8) + 10)
print("result_type:", torch.result_type(i, 2.5), torch.promote_types(torch.int32, torch.float16))
print("is_floating_point:", f.is_floating_point(), i.is_floating_point())

# --- reshaping ---
x = torch.arange(12)
print(x.reshape(3, 4))
print(x.view(2, -1).shape, x.reshape(-1, 2, 3).shape)
print(
    "unsqueeze/squeeze:",
    x.unsqueeze(0).shape,
    x.unsqueeze(-1).shape,
    torch.zeros(1, 3, 1).squeeze().shape,
)
print(
    "squeeze dim:",
    torch.zeros(1, 3, 1).squeeze(0).shape,
    torch.zeros(1, 3, 1).squeeze((0, 2)).shape,
)
m = x.reshape(3, 4)
print(
    "transpose:", m.T.shape, m.t().is_contiguous(), m.transpose(0, 1).contiguous().is_contiguous()
)
print("permute:", torch.zeros(2, 3, 4).permute(2, 0, 1).shape)
print("flatten:", torch.zeros(2, 3, 4).flatten(1).shape, torch.flatten(torch.zeros(2, 3, 4)).shape)
print(
    "stack vs cat:",
    torch.stack([b, b]).shape,
    torch.cat([b, b]).shape,
    torch.stack([b, b], dim=1).shape,
)
print("hstack/vstack:", torch.hstack([b, b]), torch.vstack([b, b]))
print("expand/repeat:", torch.tensor([[1], [2]]).expand(2, 3), torch.tensor([1, 2]).repeat(2, 2))
try:
    m.t().view(12)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.view(5, 2)
except RuntimeError as e:
    print("RuntimeError:", e)

# --- indexing ---
print("m[1]:", m[1], "m[:, 1]:", m[:, 1], "m[1, 2]:", m[1, 2], m[1, 2].item())
print("fancy:", m[[0, 2]], m[m > 6], m[:, [True, False, True, False]])
print("masked_fill:", m.masked_fill(m % 2 == 0, -1))
print("gather:", torch.gather(m, 1, torch.tensor([[0], [1], [3]])))
print("index_select:", m.index_select(1, torch.tensor([0, 3])))

# --- math and reductions ---
p = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print("matmul:", p @ p, torch.matmul(p, p[0]), torch.mm(p, p.T))
print("elementwise:", p * p, p**2, torch.sqrt(p), torch.exp(p).round(decimals=2))
print("sum/mean/std:", p.sum(), p.mean(dim=0), p.std(), p.var(dim=1, unbiased=False))
print("max/argmax:", p.max(), p.argmax(), p.max(dim=1).values, p.min(dim=0).indices)
print("cumsum/prod:", p.cumsum(0), p.prod(), p.norm(), torch.linalg.norm(p, ord=1))
print("dot:", torch.dot(p[0], p[1]), "outer:", torch.outer(p[0], p[1]))
print("bmm:", torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 3, 1)).shape)
print("allclose:", torch.allclose(p, p + 1e-9), torch.equal(p, p.clone()))

# --- debugging a model: shape errors, dtype errors, hooks printing shapes ---
model = nn.Sequential(nn.Linear(10, 5), nn.ReLU(), nn.Linear(5, 2))
try:
    model(torch.randn(4, 8))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    model(torch.randint(0, 5, (4, 10)))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    model(torch.randn(4, 10, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(2, 3) + torch.ones(3, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(3).add_(torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([4, 6]) // torch.tensor([2, 0])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(0).argmax()
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    torch.tensor([1, 2]).mean()
except RuntimeError as e:
    print("RuntimeError:", e)


def shape_hook(module, inputs, output):
    print(
        f"  {module.__class__.__name__:8s} in={tuple(inputs[0].shape)} out={tuple(output.shape)} "
        f"mean={output.mean().item():.4f}"
    )


handles = [mod.register_forward_hook(shape_hook) for mod in model]
out = model(torch.randn(4, 10))
for h in handles:
    h.remove()
print("out:", out)
print("no more hook output:", model(torch.randn(1, 10)).shape)

# inspect weights and gradient flow
loss = out.pow(2).mean()
loss.backward()
for name, prm in model.named_parameters():
    print(
        f"  {name}: grad mean {prm.grad.mean().item():.6f} abs max {prm.grad.abs().max().item():.6f}"
    )
print("children:", [type(c).__name__ for c in model.children()])
print("modules:", len(list(model.modules())))
print("named_modules:", [n for n, _ in model.named_modules()])
print("dead ReLU fraction:", (model[1](model[0](torch.randn(100, 10))) == 0).float().mean().item())
print(
    "isnan/isinf:",
    torch.isnan(torch.tensor([1.0, float("nan")])),
    torch.isinf(torch.tensor([float("inf"), 0.0])),
)
print("nan_to_num:", torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")])))
print("numpy round-trip:", out.detach().numpy().shape, type(out.detach().numpy()).__name__)
try:
    out.numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
