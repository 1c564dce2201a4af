# Autograd basics, backprop by hand, and the training pipeline from manual to nn.Module
# (in the style of Patrick Loeber's PyTorch tutorial series).
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
print(x)
y = x + 2
print(y)
print(y.grad_fn.__class__.__name__)
z = y * y * 2
print(z)
z = z.mean()
print(z)
z.backward()
print(x.grad)

x = torch.randn(3, requires_grad=True)
y = x * 2
for _ in range(10):
    y = y * 2
print(y)
print(y.shape)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float32)
y.backward(v)
print(x.grad)

a = torch.randn(2, 2)
print(a.requires_grad)
b = (a * 3) / (a - 1)
print(b.grad_fn)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)
a = torch.randn(2, 2, requires_grad=True)
b = a.detach()
print(b.requires_grad)
with torch.no_grad():
    print((x**2).requires_grad)

weights = torch.ones(4, requires_grad=True)
for epoch in range(3):
    model_output = (weights * 3).sum()
    model_output.backward()
    print(weights.grad)
    weights.grad.zero_()

optimizer = torch.optim.SGD([weights], lr=0.1)
optimizer.step()
optimizer.zero_grad()
print(weights, weights.grad)

# backpropagation: x=1, y=2, w=1
x = torch.tensor(1.0)
y = torch.tensor(2.0)
w = torch.tensor(1.0, requires_grad=True)
y_predicted = w * x
loss = (y_predicted - y) ** 2
print(loss)
loss.backward()
print(w.grad)

# manual gradient descent
X = torch.tensor([1, 2, 3, 4], dtype=torch.float32)
Y = torch.tensor([2, 4, 6, 8], dtype=torch.float32)
w = torch.tensor(0.0, dtype=torch.float32, requires_grad=True)


def forward(x):
    return w * x


def loss(y, y_pred):
    return ((y_pred - y) ** 2).mean()


print(f"Prediction before training: f(5) = {forward(5).item():.3f}")
learning_rate = 0.01
n_iters = 100
for epoch in range(n_iters):
    y_pred = forward(X)
    l = loss(Y, y_pred)
    l.backward()
    with torch.no_grad():
        w -= learning_rate * w.grad
    w.grad.zero_()
    if epoch % 10 == 0:
        print(f"epoch {epoch + 1}: w = {w.item():.3f}, loss = {l.item():.8f}")
print(f"Prediction after training: f(5) = {forward(5).item():.3f}")

X = torch.tensor([[1], [2], [3], [4]], dtype=torch.float32)
Y = torch.tensor([[2], [4], [6], [8]], dtype=torch.float32)
n_samples, n_features = X.shape
print(f"#samples: {n_samples}, #features: {n_features}")
X_test = torch.tensor([5], dtype=torch.float32)


class LinearRegression(nn.Module):
    def __init__(self, input_dim, output_dim):
        super(LinearRegression, self).__init__()
        self.lin = nn.Linear(input_dim, output_dim)

    def forward(self, x):
        return self.lin(x)


model = LinearRegression(n_features, n_features)
print(f"Prediction before training: f(5) = {model(X_test).item():.3f}")
learning_rate = 0.01
n_iters = 100
loss = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
for epoch in range(n_iters):
    y_predicted = model(X)
    l = loss(Y, y_predicted)
    l.backward()
    optimizer.step()
    optimizer.zero_grad()
    if epoch % 10 == 0:
        [w, b] = model.parameters()
        print("epoch ", epoch + 1, ": w = ", w[0][0].item(), " loss = ", l)
print(f"Prediction after training: f(5) = {model(X_test).item():.3f}")
