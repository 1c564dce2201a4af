# A shallow network's derivatives three ways: by hand (the chain rule written out), with
# autograd, and with torch.autograd.functional's jacobian and hessian (in the style of
# "Understanding Deep Learning"'s notebooks).
import numpy as np
import torch
from torch.autograd.functional import hessian, jacobian, jvp, vjp


def ReLU(preactivation):
    return preactivation.clamp(min=0)


def shallow_1_1_3(
    x,
    activation_fn,
    phi_0,
    phi_1,
    phi_2,
    phi_3,
    theta_10,
    theta_11,
    theta_20,
    theta_21,
    theta_30,
    theta_31,
):
    pre_1 = theta_10 + theta_11 * x
    pre_2 = theta_20 + theta_21 * x
    pre_3 = theta_30 + theta_31 * x
    act_1 = activation_fn(pre_1)
    act_2 = activation_fn(pre_2)
    act_3 = activation_fn(pre_3)
    y = phi_0 + phi_1 * act_1 + phi_2 * act_2 + phi_3 * act_3
    return y, pre_1, pre_2, pre_3, act_1, act_2, act_3


x = torch.linspace(0, 1, 5, dtype=torch.float64)
params = dict(
    phi_0=-0.3,
    phi_1=2.0,
    phi_2=-1.0,
    phi_3=7.0,
    theta_10=0.3,
    theta_11=-1.0,
    theta_20=-1.0,
    theta_21=2.0,
    theta_30=-0.5,
    theta_31=0.65,
)
y, *_ = shallow_1_1_3(x, ReLU, **params)
print(y)

# least squares loss and its derivative with respect to phi_1, by hand and with autograd
y_train = torch.tensor([0.1, 0.5, 0.2, 0.9, 1.2], dtype=torch.float64)
leaves = {k: torch.tensor(v, dtype=torch.float64, requires_grad=True) for k, v in params.items()}
y, pre_1, pre_2, pre_3, act_1, act_2, act_3 = shallow_1_1_3(x, ReLU, **leaves)
loss = torch.sum((y - y_train) ** 2)
loss.backward()
with torch.no_grad():
    dl_dy = 2 * (y - y_train)
    dl_dphi1 = torch.sum(dl_dy * act_1)
    dl_dtheta21 = torch.sum(dl_dy * leaves["phi_2"] * (pre_2 > 0).double() * x)
print(f"loss {loss.item():.6f}")
print(dl_dphi1.item(), leaves["phi_1"].grad.item())
print(dl_dtheta21.item(), leaves["theta_21"].grad.item())
print({k: round(v.grad.item(), 6) for k, v in leaves.items()})

# the same with numpy for comparison, as the notebooks do
xn = x.numpy()
pre = params["theta_10"] + params["theta_11"] * xn
print(np.allclose(np.maximum(pre, 0), act_1.detach().numpy()))


# Jacobians and Hessians of small functions
def f(v):
    return torch.stack([v[0] ** 2 * v[1], 5 * v[0] + torch.sin(v[1])])


v = torch.tensor([1.0, 2.0])
print(jacobian(f, v))


def g(v):
    return (v**3).sum() + v[0] * v[1]


print(hessian(g, v))
print(vjp(f, v, torch.tensor([1.0, 0.0])))
print(jvp(f, (v,), (torch.tensor([0.0, 1.0]),)))

# second derivative via create_graph
t = torch.tensor(2.0, requires_grad=True)
u = t**4
(du,) = torch.autograd.grad(u, t, create_graph=True)
(d2u,) = torch.autograd.grad(du, t)
print(du, d2u)

# the softmax Jacobian, checked against its formula diag(s) - s s^T
z = torch.tensor([1.0, 2.0, 0.5])
J = jacobian(lambda q: torch.softmax(q, dim=0), z)
s = torch.softmax(z, dim=0)
print(J)
print(torch.allclose(J, torch.diag(s) - torch.outer(s, s)))
