"""A recurrent network from scratch (d2l.ai style): one-hot inputs, the hidden state
updated step by step with tanh, gradient clipping by hand, perplexity."""

import math

import torch
from torch.nn import functional as F

text = "the time machine by h g wells the time traveller for so it will be convenient"
vocab = sorted(set(text))
idx = {ch: i for i, ch in enumerate(vocab)}
corpus = torch.tensor([idx[ch] for ch in text])
vocab_size, num_hiddens, num_steps, batch_size = len(vocab), 16, 5, 2
print(vocab_size, F.one_hot(torch.tensor([0, 2]), vocab_size).shape)


def get_params(vocab_size, num_hiddens):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape) * 0.01

    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens):
    return (torch.zeros((batch_size, num_hiddens)),)


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    (H,) = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


def grad_clipping(params, theta):
    norm = torch.sqrt(sum(torch.sum(p.grad**2) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


torch.manual_seed(8)
params = get_params(vocab_size, num_hiddens)
X = torch.arange(10).reshape((2, 5))
state = init_rnn_state(X.shape[0], num_hiddens)
Y, new_state = rnn(F.one_hot(X.T, vocab_size).type(torch.float32), state, params)
print(Y.shape, len(new_state), new_state[0].shape)

lr = 1.0
for epoch in range(4):
    total, count = 0.0, 0
    for start in range(0, len(corpus) - num_steps * batch_size - 1, num_steps * batch_size):
        chunk = corpus[start : start + num_steps * batch_size + 1]
        Xb = chunk[:-1].reshape(batch_size, num_steps)
        Yb = chunk[1:].reshape(batch_size, num_steps)
        state = init_rnn_state(batch_size, num_hiddens)
        y_hat, state = rnn(F.one_hot(Xb.T, vocab_size).float(), state, params)
        l = F.cross_entropy(y_hat, Yb.T.reshape(-1)).mean()
        for p in params:
            p.grad = None
        l.backward()
        grad_clipping(params, 1)
        with torch.no_grad():
            for p in params:
                p -= lr * p.grad
        total += l.item() * Yb.numel()
        count += Yb.numel()
    print(f"epoch {epoch + 1}: perplexity {math.exp(total / count):.3f}")


def predict(prefix, num_preds):
    state = init_rnn_state(1, num_hiddens)
    outputs = [idx[prefix[0]]]
    for y in prefix[1:]:
        _, state = rnn(F.one_hot(torch.tensor([[outputs[-1]]]), vocab_size).float(), state, params)
        outputs.append(idx[y])
    for _ in range(num_preds):
        y, state = rnn(F.one_hot(torch.tensor([[outputs[-1]]]), vocab_size).float(), state, params)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return "".join(vocab[i] for i in outputs)


print(repr(predict("the ", 10)))
