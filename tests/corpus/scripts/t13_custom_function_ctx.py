"""Custom Functions with extra arguments, needs_input_grad and a straight-through estimator."""

import torch


class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return scale * x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        print("needs_input_grad:", ctx.needs_input_grad)
        return grad * 2 * ctx.scale * x, None


class RoundSTE(torch.autograd.Function):
    """Rounds forward, passes the gradient straight through backward."""

    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad):
        return grad


x = torch.tensor([0.4, 1.6, -2.3], requires_grad=True)
y = ScaledSquare.apply(x, 3.0)
print(y)
y.sum().backward()
print(x.grad)

x.grad = None
r = RoundSTE.apply(x)
print(r, r.grad_fn.name())
(r * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
print(torch.round(x).requires_grad, torch.round(x).grad_fn.name())


class TwoOutputsSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + 2 * b

    @staticmethod
    def backward(ctx, grad):
        return grad, 2 * grad


p = torch.tensor(1.0, requires_grad=True)
q = torch.tensor(2.0, requires_grad=True)
TwoOutputsSum.apply(p, q).backward()
print(p.grad, q.grad)
