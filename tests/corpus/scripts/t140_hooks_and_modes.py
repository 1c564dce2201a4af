# Hooks on tensors and modules, module.apply for weight init, named_modules/buffers, and the
# grad modes (no_grad, inference_mode, set_grad_enabled, enable_grad) as a tutorial shows them.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.Tanh()
        self.fc2 = nn.Linear(3, 2)
        self.register_buffer("running", torch.zeros(2))

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)


net = Net()
net.apply(init_weights)
print(net.fc1.weight, net.fc2.bias)
for name, module in net.named_modules():
    print(repr(name), type(module).__name__)
print([n for n, _ in net.named_buffers()], [n for n, _ in net.named_parameters()])
print(sum(p.numel() for p in net.parameters()), len(list(net.children())))

activations = {}


def get_activation(name):
    def hook(model, input, output):
        activations[name] = output.detach()

    return hook


h1 = net.fc1.register_forward_hook(get_activation("fc1"))
h2 = net.act.register_forward_pre_hook(lambda m, inp: print("pre-hook input shape", inp[0].shape))
grads = {}


def backward_hook(module, grad_input, grad_output):
    grads[type(module).__name__] = (
        [None if g is None else tuple(g.shape) for g in grad_input],
        [tuple(g.shape) for g in grad_output],
    )


h3 = net.fc2.register_full_backward_hook(backward_hook)
x = torch.randn(5, 4)
out = net(x)
print(activations["fc1"])
out.sum().backward()
print(grads)
h1.remove()
h2.remove()
h3.remove()
net(x)
print(len(activations))

# tensor hooks: print and modify a gradient, retain_grad on a non-leaf
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
b.retain_grad()
handle = b.register_hook(lambda g: print("grad of b:", g))
a.register_hook(lambda g: g * 10)
c = (b**2).sum()
c.backward()
print(a.grad, b.grad, b.is_leaf, b.requires_grad)
handle.remove()

# the grad modes
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    z = x * 2
print(z.requires_grad, z.is_inference(), torch.is_inference_mode_enabled())
with torch.set_grad_enabled(False):
    w = x * 2
print(w.requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        v = x * 2
print(v.requires_grad)


@torch.no_grad()
def evaluate(model, data):
    return model(data).argmax(dim=1)


@torch.inference_mode()
def predict(model, data):
    return model(data)


print(evaluate(net, x.new_ones(3, 4)), predict(net, torch.zeros(1, 4)).requires_grad)
torch.set_grad_enabled(False)
print((x * 3).requires_grad)
torch.set_grad_enabled(True)
print((x * 3).requires_grad)

# freezing and unfreezing with requires_grad_, and eval/train flags
net.fc1.requires_grad_(False)
print([p.requires_grad for p in net.parameters()], net.training)
net.eval()
print(net.training, net.fc1.training)
net.train()
print(net.training)
net.zero_grad(set_to_none=True)
print(net.fc2.weight.grad)
