"""Batch normalization from scratch (d2l.ai style), with moving averages, then the
built-in BatchNorm2d and BatchNorm1d in training and evaluation."""

import torch
from torch import nn


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean, self.moving_var, eps=1e-5, momentum=0.1
        )
        return Y


torch.manual_seed(6)
X = torch.randn(4, 3, 5, 5) * 2 + 1
mine = BatchNorm(3, 4)
theirs = nn.BatchNorm2d(3)
a, b = mine(X), theirs(X)
print((a - b).abs().max() < 1e-5)
print(mine.moving_mean.reshape(-1))
print(theirs.running_mean)
print(theirs.running_var)
print(theirs.num_batches_tracked)
b.sum().backward()
print(theirs.weight.grad, theirs.bias.grad)
theirs.eval()
print(theirs(X)[0, 0, 0])
with torch.no_grad():
    print(mine(X)[0, 0, 0])

bn1 = nn.BatchNorm1d(4, momentum=None)
for step in range(3):
    out = bn1(torch.randn(8, 4) + step)
print(bn1.running_mean, bn1.running_var, bn1)
print(out.mean(0).abs().max() < 1e-5, out.std(0, unbiased=False))
