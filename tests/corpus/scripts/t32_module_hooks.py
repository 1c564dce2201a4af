"""Module hooks: see each layer's input and output, change them, and see gradients flow."""

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, param in enumerate(model.parameters()):
        param.copy_(torch.linspace(-1, 1, param.numel()).reshape(param.shape) * (i + 1) / 4)

activations = {}


def save_output(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()

    return hook


def show_input(module, inputs):
    print("about to run", type(module).__name__, "on", inputs[0].shape)


def double_output(module, inputs, output):
    return output * 2


def show_grads(module, grad_input, grad_output):
    print(type(module).__name__, "grad_input", grad_input, "grad_output", grad_output)


handles = [model[i].register_forward_hook(save_output(f"layer{i}")) for i in range(3)]
pre = model[0].register_forward_pre_hook(show_input)
x = torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 2.0]], requires_grad=True)
out = model(x)
print(out)
print({k: v.shape for k, v in activations.items()}, activations["layer1"])
for handle in handles:
    handle.remove()
pre.remove()
doubler = model[2].register_forward_hook(double_output)
print(model(x))
doubler.remove()
model[2].register_full_backward_hook(show_grads)
model(x).sum().backward()
print(x.grad)
