# Hooks: tensor.register_hook, module forward / pre / backward hooks
import torch
from torch import nn

torch.manual_seed(5)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print("grad arriving at y:", g))
h = x.register_hook(lambda g: g * 10)  # modifies gradient
z = (y**2).sum()
z.backward()
print("x.grad (scaled by hook):", x.grad)
h.remove()
x.grad = None
(x * 2).pow(2).sum().backward()
print("x.grad after removing hook:", x.grad)

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
activations = {}


def save_activation(name):
    def hook(module, inp, out):
        activations[name] = out.detach()
        print(f"forward hook {name}: in {tuple(inp[0].shape)} out {tuple(out.shape)}")

    return hook


handles = []
for name, m in model.named_modules():
    if isinstance(m, (nn.Linear, nn.ReLU)):
        handles.append(m.register_forward_hook(save_activation(name)))


def pre_hook(module, inp):
    print("pre-hook sees input sum:", round(inp[0].sum().item(), 4))
    return (inp[0] * 0.5,)


handles.append(model[0].register_forward_pre_hook(pre_hook))


def bwd_hook(module, grad_input, grad_output):
    print("backward hook", type(module).__name__, "grad_output shape:", grad_output[0].shape)


handles.append(model[2].register_full_backward_hook(bwd_hook))

inp = torch.randn(5, 3)
out = model(inp)
print("recorded:", sorted(activations))
print("relu output nonneg:", bool((activations["1"] >= 0).all()))
out.sum().backward()
print("grad norm layer0:", round(model[0].weight.grad.norm().item(), 4))

for hd in handles:
    hd.remove()
activations.clear()
out2 = model(inp)
print("after removal, recorded:", activations, "out changed:", not torch.allclose(out, out2))
