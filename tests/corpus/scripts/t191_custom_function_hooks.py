# Custom autograd.Function, gradcheck, tensor hooks, module hooks
import torch
from torch import nn

torch.manual_seed(0)


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        g = grad_out.clone()
        g[x < 0] = 0
        return g


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_out):
        (y,) = ctx.saved_tensors
        return grad_out * y


x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = MyReLU.apply(x)
print("MyReLU:", y, "grad_fn:", type(y.grad_fn).__name__)
y.sum().backward()
print("grad:", x.grad)

xd = torch.randn(4, dtype=torch.double, requires_grad=True)
print("gradcheck Exp:", torch.autograd.gradcheck(Exp.apply, (xd,)))
print("gradcheck sigmoid:", torch.autograd.gradcheck(torch.sigmoid, (xd,)))


# straight-through estimator
class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, g):
        return g


z = torch.tensor([0.3, 1.7, -0.6], requires_grad=True)
out = RoundSTE.apply(z) * torch.tensor([1.0, 2.0, 3.0])
out.sum().backward()
print("STE forward:", RoundSTE.apply(z).detach(), "grad:", z.grad)

# tensor hooks
a = torch.tensor(3.0, requires_grad=True)
b = a * 2
b.register_hook(lambda g: print("  hook sees grad of b:", g))
h = b.register_hook(lambda g: g * 10)
c = b**2
c.backward()
print("a.grad with x10 hook:", a.grad)
h.remove()

# retain_grad for intermediate
a.grad = None
b = a * 2
b.retain_grad()
(b**2).backward()
print("b.grad:", b.grad, "a.grad:", a.grad)

# module forward hooks to capture activations
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
acts = {}


def save(name):
    def hook(mod, inp, out):
        acts[name] = out.detach()

    return hook


handles = [net[i].register_forward_hook(save(f"layer{i}")) for i in range(3)]
out = net(torch.randn(2, 3))
for k, v in acts.items():
    print(k, tuple(v.shape), "mean", round(v.mean().item(), 5))
for hd in handles:
    hd.remove()
grads = {}


def grad_hook(g):
    grads["w0"] = g.norm().item()


net[0].weight.register_hook(grad_hook)
net(torch.randn(2, 3)).sum().backward()
print("weight-0 grad norm via hook:", round(grads["w0"], 5))
