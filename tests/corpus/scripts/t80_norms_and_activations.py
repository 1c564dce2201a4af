"""The normalisation and activation zoo, as a course's 'modern layers' lecture compares
them: BatchNorm1d, LayerNorm, GroupNorm, InstanceNorm1d and RMSNorm on the same batch, and
GELU, SiLU, Mish, ELU, SELU, Softplus, Hardswish on a grid, with their gradients."""

import torch
from torch import nn

torch.manual_seed(6)
x = torch.randn(4, 6, 5) * 3 + 1
for norm in (
    nn.BatchNorm1d(6),
    nn.LayerNorm(5),
    nn.LayerNorm([6, 5]),
    nn.GroupNorm(3, 6),
    nn.InstanceNorm1d(6, affine=True),
    nn.RMSNorm(5),
):
    y = norm(x)
    print(f"{type(norm).__name__:14} mean {y.mean().item():+.4f} std {y.std().item():.4f}")
    print("   ", y[0, 0, :3])
ln = nn.LayerNorm(5)
xs = x.clone().requires_grad_()
ln(xs).pow(3).sum().backward()
print(xs.grad[0, 0], ln.weight.grad)

grid = torch.linspace(-3, 3, 7, requires_grad=True)
for act in (
    nn.GELU(),
    nn.GELU(approximate="tanh"),
    nn.SiLU(),
    nn.Mish(),
    nn.ELU(),
    nn.SELU(),
    nn.Softplus(),
    nn.Hardswish(),
    nn.LeakyReLU(0.1),
    nn.ReLU6(),
    nn.Hardtanh(-2, 2),
):
    out = act(grid)
    (g,) = torch.autograd.grad(out.sum(), grid)
    values = [round(v, 3) for v in out.tolist()[::2]]
    print(f"{act!r:32} {values} grad {[round(v, 3) for v in g.tolist()[::2]]}")
prelu = nn.PReLU(3)
print(prelu(torch.tensor([[-1.0, 2.0, -3.0]])), prelu.weight)
print(nn.GLU()(torch.tensor([[1.0, 2.0, 0.5, -1.0]])))
print(nn.Softmin(dim=0)(torch.tensor([1.0, 2.0, 3.0])), nn.LogSigmoid()(torch.tensor([0.0, 10.0])))
