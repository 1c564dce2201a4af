"""gradcheck against finite differences, and the legacy Variable wrapper."""

import warnings

import torch
from torch.autograd import Variable, gradcheck

warnings.simplefilter("ignore")


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log(1 + torch.exp(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * torch.sigmoid(x)


class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x


inputs = (torch.tensor([-1.0, 0.5, 2.0], dtype=torch.double, requires_grad=True),)
print(gradcheck(Softplus.apply, inputs, eps=1e-6, atol=1e-4))
print(gradcheck(Wrong.apply, inputs, raise_exception=False))
try:
    gradcheck(Wrong.apply, inputs)
except RuntimeError as error:
    print(str(error).splitlines()[0])
print(
    gradcheck(
        lambda a, b: (a * b).sum(dim=0),
        (
            torch.ones(2, 3, dtype=torch.double, requires_grad=True),
            torch.full((2, 3), 2.0, dtype=torch.double, requires_grad=True),
        ),
    )
)

v = Variable(torch.tensor([1.0, 2.0]), requires_grad=True)
print(v, isinstance(v, Variable), isinstance(torch.zeros(1), Variable))
(v * v).sum().backward()
print(v.grad, v.data)
