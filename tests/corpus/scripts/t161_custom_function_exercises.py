# Custom autograd Functions as exercises: a hand-written backward checked by gradcheck, both
# ways to define one, ctx flags, non-differentiable outputs and a straight-through estimator.
import torch
from torch.autograd import Function, gradcheck
from torch.autograd.function import once_differentiable


class MyReLU(Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias=None):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class SortWithIndices(Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, g, _):
        (idx,) = ctx.saved_tensors
        grad = torch.zeros_like(g)
        grad.index_add_(0, idx, g)
        return grad


class STERound(Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
relu = MyReLU.apply
y = relu(x)
print(y)
y.sum().backward()
print(x.grad)
print(y.grad_fn)

inp = torch.randn(4, 3, dtype=torch.double, requires_grad=True)
weight = torch.randn(2, 3, dtype=torch.double, requires_grad=True)
bias = torch.randn(2, dtype=torch.double, requires_grad=True)
print(gradcheck(LinearFunction.apply, (inp, weight, bias), eps=1e-6, atol=1e-4))
print(
    gradcheck(
        MyReLU.apply, (torch.tensor([0.5, -1.0, 2.0], dtype=torch.double, requires_grad=True),)
    )
)
out = LinearFunction.apply(inp, weight, bias)
out.pow(2).sum().backward()
print(weight.grad)
print(bias.grad)

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = MulConstant.apply(a, 5.0)
b.backward(torch.ones(3))
print(b, a.grad)
e = Exp.apply(torch.tensor([0.0, 1.0], requires_grad=True))
print(e)
e.sum().backward()

s = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
values, idx = SortWithIndices.apply(s)
print(values, idx, idx.requires_grad)
(values * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(s.grad)

w = torch.tensor([0.3, 1.7, -0.6], requires_grad=True)
q = STERound.apply(w * 2)
loss = ((q - torch.tensor([1.0, 3.0, -1.0])) ** 2).sum()
loss.backward()
print(q, loss, w.grad)

# Manual backprop of a two-layer network, checked against autograd
torch.manual_seed(1)
X = torch.randn(6, 3)
Y = torch.randn(6, 2)
W1 = torch.randn(3, 4, requires_grad=True)
W2 = torch.randn(4, 2, requires_grad=True)
h = X @ W1
a1 = torch.tanh(h)
out = a1 @ W2
L = ((out - Y) ** 2).mean()
L.backward()
with torch.no_grad():
    dout = 2 * (out - Y) / out.numel()
    dW2 = a1.t() @ dout
    da1 = dout @ W2.t()
    dh = da1 * (1 - a1**2)
    dW1 = X.t() @ dh
print(torch.allclose(dW1, W1.grad), torch.allclose(dW2, W2.grad))
print((dW1 - W1.grad).abs().max() < 1e-6, L.item())
