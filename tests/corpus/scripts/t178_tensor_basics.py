# Tensor basics: creation, indexing, broadcasting, views vs copies, dtypes
import torch

torch.manual_seed(0)
x = torch.arange(12)
print("x:", x, x.dtype, x.shape)
m = x.reshape(3, 4)
print("m:\n", m)
print("m[1]:", m[1])
print("m[:, 2]:", m[:, 2])
print("m[1:, ::2]:\n", m[1:, ::2])
print("m[m > 5]:", m[m > 5])
print("m[[0, 2], [1, 3]]:", m[[0, 2], [1, 3]])
print("m[..., -1]:", m[..., -1])
print("m[None].shape:", m[None].shape, "m[:, None].shape:", m[:, None].shape)

# views share storage
v = m.view(4, 3)
v[0, 0] = 100
print("after v[0,0]=100, x[0] =", x[0].item())
t = m.t()
print("t.is_contiguous():", t.is_contiguous(), "m.is_contiguous():", m.is_contiguous())
try:
    t.view(12)
except RuntimeError as e:
    print("view on non-contiguous failed:", type(e).__name__)
c = t.contiguous().view(12)
print("contiguous view:", c)
cl = m.clone()
cl[0, 0] = -1
print("clone doesn't affect original:", m[0, 0].item(), cl[0, 0].item())

# broadcasting
a = torch.ones(3, 1)
b = torch.arange(4.0)
print("a + b:\n", a + b)
print("(a + b).shape:", (a + b).shape)
col = torch.tensor([[1.0], [2.0], [3.0]])
print("col * b:\n", col * b)

# dtypes
f = torch.tensor([1.7, -2.3, 3.5])
print("f:", f, f.dtype)
print("f.int():", f.int(), "f.long().dtype:", f.long().dtype)
print("f.to(torch.float64):", f.to(torch.float64))
print("f.half().dtype:", f.half().dtype)
bools = f > 0
print("bools:", bools, bools.dtype, "sum:", bools.sum(), bools.float().mean())
i = torch.tensor([1, 2, 3])
print("int / int:", i / 2, (i / 2).dtype)
print("int // int:", i // 2)
print("int + float:", (i + 0.5).dtype)
print("zeros_like:", torch.zeros_like(f), "full:", torch.full((2, 2), 7.0))
r = torch.randn(2, 3)
print("randn:\n", r)
print("mean/std/max:", r.mean().item(), r.std().item(), r.max().item())
print("argmax dim=1:", r.argmax(dim=1))
print("stack:", torch.stack([f, f]).shape, "cat:", torch.cat([f, f]).shape)
print("squeeze/unsqueeze:", torch.zeros(1, 3, 1).squeeze().shape, f.unsqueeze(0).shape)
print("permute:", torch.zeros(2, 3, 4).permute(2, 0, 1).shape)
print("numpy roundtrip:", torch.from_numpy(f.numpy()).tolist())
