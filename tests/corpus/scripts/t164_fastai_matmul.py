# fast.ai "from the foundations": matmul from scratch, broadcasting, init stats
import torch

torch.manual_seed(42)

a = torch.randn(5, 4)
b = torch.randn(4, 3)


def matmul_loops(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac):
                c[i, j] += a[i, k] * b[k, j]
    return c


def matmul_row(a, b):
    c = torch.zeros(a.shape[0], b.shape[1])
    for i in range(a.shape[0]):
        c[i] = (a[i].unsqueeze(-1) * b).sum(dim=0)
    return c


c1 = matmul_loops(a, b)
c2 = matmul_row(a, b)
c3 = torch.einsum("ik,kj->ij", a, b)
c4 = a @ b
print("loops:\n", c1)
print("allclose row/loops:", torch.allclose(c1, c2, atol=1e-5))
print("allclose einsum:", torch.allclose(c1, c3, atol=1e-5))
print("max abs diff @:", (c1 - c4).abs().max())

# broadcasting rules
v = torch.tensor([10.0, 20.0, 30.0])
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
print("m + v:\n", m + v)
print("v[:, None].shape:", v[:, None].shape, "v[None].shape:", v[None].shape)
print("m + v[:, None]:\n", m + v[:, None])
print("expand_as:\n", v.expand_as(m))
print("outer product:\n", v[:, None] * v[None, :])

# why init matters
x = torch.randn(200, 100)
for name, scale in [("std=1", 1.0), ("std=0.01", 0.01), ("kaiming", (2 / 100) ** 0.5)]:
    h = x
    for _ in range(10):
        w = torch.randn(100, 100) * scale
        h = torch.relu(h @ w)
    print(f"{name:9s} mean={h.mean().item():.4g} std={h.std().item():.4g}")

# stats of a kaiming-initialised layer
w1 = torch.zeros(50, 100)
torch.nn.init.kaiming_normal_(w1, mode="fan_out")
t = torch.relu(x @ w1.t())
print("after kaiming layer: mean", round(t.mean().item(), 4), "std", round(t.std().item(), 4))
print("shape:", t.shape, "numel:", t.numel(), "dtype:", t.dtype)
print("argmax row0:", t[0].argmax().item(), "topk:", t[0].topk(3))
