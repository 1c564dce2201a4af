"""D2L 9.5: RNN from scratch with one_hot inputs, grad clipping, and nn.RNN concise."""

import math

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
print(F.one_hot(torch.tensor([0, 2]), 5))
X = torch.arange(10).reshape((2, 5))
print(F.one_hot(X.T, 28).shape)
num_inputs, num_hiddens, vocab = 28, 32, 28
W_xh = torch.randn(num_inputs, num_hiddens) * 0.01
W_hh = torch.randn(num_hiddens, num_hiddens) * 0.01
b_h = torch.zeros(num_hiddens)
W_hq = torch.randn(num_hiddens, vocab) * 0.01
b_q = torch.zeros(vocab)
params = [W_xh, W_hh, b_h, W_hq, b_q]
for p in params:
    p.requires_grad_(True)


def rnn(inputs, state):
    (H,) = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.matmul(X, W_xh) + torch.matmul(H, W_hh) + b_h)
        outputs.append(torch.matmul(H, W_hq) + b_q)
    return torch.cat(outputs, dim=0), (H,)


state = (torch.zeros((2, num_hiddens)),)
Y, new_state = rnn(F.one_hot(X.T, 28).float(), state)
print(Y.shape, len(new_state), new_state[0].shape)
y = torch.randint(0, 28, (10,))
l = F.cross_entropy(Y, y)
l.backward()
norm = torch.sqrt(sum(torch.sum(p.grad**2) for p in params))
print(l, norm)


def grad_clipping(params, theta):
    norm = torch.sqrt(sum(torch.sum(p.grad**2) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


grad_clipping(params, 1e-3)
print(W_hq.grad.norm())
rnn_layer = nn.RNN(28, 16)
H0 = torch.zeros((1, 2, 16))
Yr, Hn = rnn_layer(F.one_hot(X.T, 28).float(), H0)
print(Yr.shape, Hn.shape, Yr[-1, 0, :4])
print(torch.nn.utils.clip_grad_norm_(rnn_layer.parameters(), 1.0) if False else rnn_layer)
print(math.exp(l.item()))
