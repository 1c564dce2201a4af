# Custom torch.autograd.Function examples (PyTorch docs / tutorials)
import torch
from torch.autograd import Function

torch.manual_seed(0)


class MyExp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


x = torch.randn(3, requires_grad=True)
y = MyExp.apply(x)
y.sum().backward()
print("x:", x)
print("exp:", y)
print("grad == exp:", torch.allclose(x.grad, y))
print("grad_fn name:", type(y.grad_fn).__name__)


class LegendreP3(Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input**3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input**2 - 1)


t = torch.linspace(-1, 1, 5, requires_grad=True)
p = LegendreP3.apply(t)
p.backward(torch.ones_like(p))
print("P3:", p.detach(), "dP3:", t.grad)


class SinCos(Function):
    """Two outputs from one Function."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sin(x), torch.cos(x)

    @staticmethod
    def backward(ctx, gs, gc):
        (x,) = ctx.saved_tensors
        return gs * torch.cos(x) - gc * torch.sin(x)


a = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
s, c = SinCos.apply(a)
loss = (s * 2 + c * 3).sum()
loss.backward()
print("sin:", s, "\ncos:", c)
print("a.grad:", a.grad)
print("expected:", 2 * torch.cos(a.detach()) - 3 * torch.sin(a.detach()))

a.grad = None
s, c = SinCos.apply(a)
s.sum().backward()  # only one output used; the other grad arrives as zeros/None
print("only sin used grad:", a.grad)


class MulConst(Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


z = torch.ones(2, requires_grad=True)
out = MulConst.apply(z, 4.0)
out.sum().backward()
print("MulConst grad:", z.grad, "needs_input_grad demo ok")

dbl = torch.randn(4, dtype=torch.double, requires_grad=True)
print("gradcheck MyExp:", torch.autograd.gradcheck(MyExp.apply, (dbl,)))
print("gradcheck LegendreP3:", torch.autograd.gradcheck(LegendreP3.apply, (dbl,)))
