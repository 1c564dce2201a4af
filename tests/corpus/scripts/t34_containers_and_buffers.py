"""Containers, buffers and layers with state: ModuleDict, ParameterList, register_buffer,
BatchNorm1d's running statistics, Embedding, Dropout in eval mode, LeakyReLU."""

import torch
import torch.nn as nn


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(()))
        self.register_buffer("scratch", torch.ones(2), persistent=False)
        self.gains = nn.ParameterList(
            [nn.Parameter(torch.ones(2)), nn.Parameter(torch.full((2,), 2.0))]
        )
        self.extra = nn.ParameterDict({"shift": nn.Parameter(torch.zeros(2))})
        self.blocks = nn.ModuleDict({"act": nn.LeakyReLU(0.1), "drop": nn.Dropout(0.5)})

    def forward(self, x):
        self.count += 1
        for gain in self.gains:
            x = x * gain
        return self.blocks["drop"](self.blocks["act"](x + self.extra["shift"]))


m = Scaler()
print(m)
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_buffers()], [n for n, _ in m.named_parameters()])
m.eval()
print(m(torch.tensor([[-1.0, 2.0]])), m.count, m.training, m.blocks["drop"].training)

bn = nn.BatchNorm1d(3)
batch = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, -1.0], [2.0, 2.0, 2.0], [0.0, 1.0, 5.0]])
out = bn(batch)
print(out)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
out.sum().backward()
print(bn.weight.grad, bn.bias.grad)
bn.eval()
print(bn(batch))

emb = nn.Embedding(5, 3)
with torch.no_grad():
    emb.weight.copy_(torch.arange(15.0).reshape(5, 3))
vectors = emb(torch.tensor([[0, 2], [4, 2]]))
print(vectors.shape, vectors[1])
vectors.sum().backward()
print(emb.weight.grad)
print(nn.ModuleList([nn.Linear(2, 2) for _ in range(3)]))
