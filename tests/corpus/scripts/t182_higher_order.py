# torch.autograd.grad, create_graph, higher-order derivatives, gradient penalty
import torch

torch.manual_seed(0)
x = torch.tensor(2.0, requires_grad=True)
y = x**3 + 2 * x**2
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx at 2:", dy.item(), "(expect 3*4+4*2=20)")
(d2y,) = torch.autograd.grad(dy, x, create_graph=True)
print("d2y/dx2:", d2y.item(), "(expect 6*2+4=16)")
(d3y,) = torch.autograd.grad(d2y, x)
print("d3y/dx3:", d3y.item(), "(expect 6)")

# derivatives of sin repeatedly
t = torch.linspace(0, 3.14159, 5, requires_grad=True)
f = torch.sin(t)
derivs = []
g = f
for k in range(4):
    (g,) = torch.autograd.grad(g.sum(), t, create_graph=True)
    derivs.append(g.detach())
for k, d in enumerate(derivs, 1):
    print(f"d^{k} sin:", d)

# grad w.r.t. several inputs, allow_unused
a = torch.tensor(1.5, requires_grad=True)
b = torch.tensor(-0.5, requires_grad=True)
c = torch.tensor(4.0, requires_grad=True)
out = a * b + b**2
ga, gb, gc = torch.autograd.grad(out, [a, b, c], allow_unused=True)
print("grads:", ga, gb, gc)

# WGAN-GP style gradient penalty on a tiny critic
critic = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
real = torch.randn(6, 2)
fake = torch.randn(6, 2) + 2
alpha = torch.rand(6, 1)
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
score = critic(interp)
(grad_in,) = torch.autograd.grad(
    score, interp, grad_outputs=torch.ones_like(score), create_graph=True
)
norms = grad_in.norm(2, dim=1)
print("grad norms:", norms.detach())
penalty = ((norms - 1) ** 2).mean()
print("penalty:", penalty.item())
penalty.backward()
for name, p in critic.named_parameters():
    print(name, "grad norm:", None if p.grad is None else round(p.grad.norm().item(), 6))

# Hessian-vector product by double backward
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (w**2).prod()
(gw,) = torch.autograd.grad(loss, w, create_graph=True)
vec = torch.tensor([1.0, 0.0, 0.0])
(hv,) = torch.autograd.grad(gw, w, grad_outputs=vec)
print("grad:", gw.detach(), "Hv:", hv)
