# Tensors, a dense layer written by hand, a model subclass and gradient descent on x
# (in the style of MIT 6.S191's first PyTorch lab).
import torch
import torch.nn as nn

integer = torch.tensor(1234)
decimal = torch.tensor(3.14159265359)
print(f"`integer` is a {integer.ndim}-d Tensor: {integer}")
print(f"`decimal` is a {decimal.ndim}-d Tensor: {decimal}")
fibonacci = torch.tensor([1, 1, 2, 3, 5, 8])
count_to_100 = torch.tensor(range(100))
print(f"`fibonacci` is a {fibonacci.ndim}-d Tensor with shape: {fibonacci.shape}")
print(f"`count_to_100` is a {count_to_100.ndim}-d Tensor with shape: {count_to_100.shape}")
matrix = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
assert isinstance(matrix, torch.Tensor), "matrix must be a torch Tensor object"
assert matrix.ndim == 2
images = torch.zeros(10, 3, 256, 256)
assert images.ndim == 4, "images must have 4 dimensions"
assert images.shape == (10, 3, 256, 256), "images is incorrect shape"
print(f"images is a {images.ndim}-d Tensor with shape: {images.shape}")
row_vector = matrix[1]
column_vector = matrix[:, 1]
scalar = matrix[0, 1]
print(f"`row_vector`: {row_vector}")
print(f"`column_vector`: {column_vector}")
print(f"`scalar`: {scalar}")

a = torch.tensor(15)
b = torch.tensor(61)
c1 = torch.add(a, b)
c2 = a + b
print(f"c1: {c1}")
print(f"c2: {c2}")


def func(a, b):
    c = torch.add(a, b)
    d = torch.subtract(b, 1)
    e = torch.multiply(c, d)
    return e


a, b = 1.5, 2.5
e_out = func(torch.tensor(a), torch.tensor(b))
print(f"e_out: {e_out}")


class OurDenseLayer(torch.nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super(OurDenseLayer, self).__init__()
        self.W = torch.nn.Parameter(torch.randn(num_inputs, num_outputs))
        self.bias = torch.nn.Parameter(torch.randn(num_outputs))

    def forward(self, x):
        z = torch.matmul(x, self.W) + self.bias
        y = torch.sigmoid(z)
        return y


torch.manual_seed(1)
num_inputs = 2
num_outputs = 3
layer = OurDenseLayer(num_inputs, num_outputs)
x_input = torch.tensor([[1, 2.0]])
y = layer(x_input)
print(f"input shape: {x_input.shape}")
print(f"output shape: {y.shape}")
print(f"output result: {y}")

n_output_nodes = 3
model = nn.Sequential(nn.Linear(num_inputs, n_output_nodes), nn.Sigmoid())
x_input = torch.tensor([[1, 2.0]])
model_output = model(x_input)
print(f"input shape: {x_input.shape}")
print(f"output shape: {y.shape}")
print(f"output result: {y}")
print(model_output)


class LinearWithSigmoidActivation(nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super(LinearWithSigmoidActivation, self).__init__()
        self.linear = nn.Linear(num_inputs, num_outputs)
        self.activation = nn.Sigmoid()

    def forward(self, inputs):
        linear_output = self.linear(inputs)
        output = self.activation(linear_output)
        return output


class LinearButSometimesIdentity(nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super(LinearButSometimesIdentity, self).__init__()
        self.linear = nn.Linear(num_inputs, num_outputs)

    def forward(self, inputs, isidentity=False):
        if isidentity:
            return inputs
        return self.linear(inputs)


model = LinearWithSigmoidActivation(num_inputs, n_output_nodes)
print(model(torch.tensor([[1, 2.0]])))
model = LinearButSometimesIdentity(num_inputs=2, num_outputs=3)
x_input = torch.tensor([[1, 2.0]])
out_with_linear = model(x_input)
out_with_identity = model(x_input, isidentity=True)
print(f"input: {x_input}")
print(
    "Network linear output: {}; network identity output: {}".format(
        out_with_linear, out_with_identity
    )
)

x = torch.tensor(3.0, requires_grad=True)
y = x**2
y.backward()
dy_dx = x.grad
print("dy_dx of y=x^2 at x=3.0 is: ", dy_dx)
assert dy_dx == 6.0

x = torch.randn(1)
print(f"Initializing x={x.item()}")
learning_rate = 1e-2
history = []
x_f = 4
for i in range(500):
    x = torch.tensor([x], requires_grad=True)
    loss = (x - x_f) ** 2
    loss.backward()
    x = x.item() - learning_rate * x.grad
    history.append(x.item())
print([round(h, 4) for h in history[::100]], round(history[-1], 6))
