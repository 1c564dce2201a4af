"""EPFL dlc lecture 13 style: attention by hand with einsum, masks, a toy attention model; plus distributions and losses that lessons print"""

import math

import torch
from torch import distributions as D
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
N, T, Dm = 2, 5, 4
Q = torch.randn(N, T, Dm)
K = torch.randn(N, T, Dm)
V = torch.randn(N, T, Dm)
A = torch.einsum("nct,nst->ncs", Q, K) / math.sqrt(Dm)
print("scores", A.shape, A[0])
A_bmm = Q @ K.transpose(1, 2) / math.sqrt(Dm)
print("einsum vs bmm close", torch.allclose(A, A_bmm, atol=1e-6))
attn = A.softmax(dim=2)
print("rows sum to one", attn.sum(2))
Y = torch.einsum("ncs,nsd->ncd", attn, V)
print("Y", Y[0])
causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
Am = A.masked_fill(~causal, float("-inf"))
print("masked attention\n", Am.softmax(-1)[0])
try:
    A.masked_fill(~causal[:, :3], float("-inf"))  # a mask built for the wrong length
except RuntimeError as e:
    print("RuntimeError:", e)
sdpa = F.scaled_dot_product_attention(Q, K, V, is_causal=True)
print("sdpa close to manual", torch.allclose(sdpa, Am.softmax(-1) @ V, atol=1e-6))
print(F.scaled_dot_product_attention(Q, K, V, attn_mask=causal)[0, 0])


class AttentionLayer(nn.Module):
    def __init__(self, in_dim, out_dim, key_dim):
        super().__init__()
        self.conv_Q = nn.Conv1d(in_dim, key_dim, kernel_size=1, bias=False)
        self.conv_K = nn.Conv1d(in_dim, key_dim, kernel_size=1, bias=False)
        self.conv_V = nn.Conv1d(in_dim, out_dim, kernel_size=1, bias=False)

    def forward(self, x):
        Q = self.conv_Q(x)
        K = self.conv_K(x)
        V = self.conv_V(x)
        A = Q.transpose(1, 2).matmul(K).softmax(2)
        return A.matmul(V.transpose(1, 2)).transpose(1, 2)


torch.manual_seed(1)
layer = AttentionLayer(3, 6, 4)
x = torch.randn(2, 3, 10)
y = layer(x)
print(layer, y.shape, y[0, :, 0])
print(sum(p.numel() for p in layer.parameters()))


# a toy sequence task: each output is the average of the input at positions of two markers
def make_data(nb, T=12):
    torch.manual_seed(2)
    xs = torch.zeros(nb, 1, T)
    ys = torch.zeros(nb, 1, T)
    pos = torch.rand(nb, T).argsort(1)[:, :2]
    h = torch.rand(nb, 2) + 0.5
    xs.scatter_(2, pos.unsqueeze(1), h.unsqueeze(1))
    ys[:] = h.mean(1).view(-1, 1, 1)
    return xs, ys


xs, ys = make_data(64)
print(xs[0], ys[0, 0, :3])
torch.manual_seed(3)
model = nn.Sequential(
    nn.Conv1d(1, 8, 3, padding=1), nn.ReLU(), AttentionLayer(8, 8, 4), nn.ReLU(), nn.Conv1d(8, 1, 1)
)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for e in range(25):
    out = model(xs)
    loss = F.mse_loss(out, ys)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if e % 5 == 0:
        print(f"epoch {e} mse {loss.item():.6f}")

mha = nn.MultiheadAttention(embed_dim=4, num_heads=2, batch_first=True)
torch.manual_seed(4)
for p in mha.parameters():
    nn.init.normal_(p, std=0.3)
o, w = mha(Q, K, V)
print(o.shape, w.shape, w[0].sum(-1))
o2, w2 = mha(
    Q, K, V, average_attn_weights=False, key_padding_mask=torch.tensor([[False] * 4 + [True]] * 2)
)
print(w2.shape, w2[0, 0, 0])
print(nn.Transformer.generate_square_subsequent_mask(3))

# positional encoding (sinusoidal)
pe = torch.zeros(6, 4)
position = torch.arange(0, 6, dtype=torch.float).unsqueeze(1)
div_term = torch.exp(torch.arange(0, 4, 2).float() * (-math.log(10000.0) / 4))
pe[:, 0::2] = torch.sin(position * div_term)
pe[:, 1::2] = torch.cos(position * div_term)
print(pe)

# distributions
torch.manual_seed(5)
nrm = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
print(nrm, nrm.sample(), nrm.sample((3,)).shape, nrm.rsample().requires_grad)
print(
    nrm.log_prob(torch.tensor([0.0, 0.0])),
    nrm.entropy(),
    nrm.cdf(torch.tensor([0.0, 1.0])),
    nrm.icdf(torch.tensor([0.5, 0.975])),
)
print(nrm.mean, nrm.stddev, nrm.variance, nrm.batch_shape, nrm.event_shape)
cat = D.Categorical(probs=torch.tensor([0.1, 0.2, 0.7]))
print(cat, cat.sample((8,)), cat.log_prob(torch.tensor(2)), cat.entropy(), cat.probs, cat.logits)
cat2 = D.Categorical(logits=torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
print(cat2.probs, cat2.sample(), cat2.batch_shape)
bern = D.Bernoulli(probs=torch.tensor([0.3, 0.9]))
print(bern.sample((4,)), bern.log_prob(torch.tensor([1.0, 0.0])), bern.entropy())
mvn = D.MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[1.0, 0.5], [0.5, 2.0]]))
print(mvn, mvn.sample((2,)), mvn.log_prob(torch.tensor([0.5, -0.5])), mvn.entropy())
print(D.kl_divergence(nrm, D.Normal(torch.zeros(2), torch.ones(2))))
print(D.kl_divergence(cat, D.Categorical(probs=torch.ones(3) / 3)))
print(
    D.Uniform(0.0, 2.0).sample((3,)),
    D.Uniform(0.0, 2.0).log_prob(torch.tensor(1.0)),
    D.Beta(2.0, 3.0).mean,
    D.Exponential(2.0).log_prob(torch.tensor(1.0)),
)
print(
    D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 1).log_prob(torch.zeros(3)),
    D.Poisson(3.0).log_prob(torch.tensor(2.0)),
    D.Binomial(10, probs=torch.tensor(0.3)).log_prob(torch.tensor(3.0)),
)
print(
    D.OneHotCategorical(probs=torch.tensor([0.2, 0.8])).sample((3,)),
    D.Laplace(0.0, 1.0).entropy(),
    D.Gamma(2.0, 1.0).log_prob(torch.tensor(1.5)),
)
try:
    D.Normal(torch.tensor(0.0), torch.tensor(-1.0))
except ValueError as e:
    print("ValueError:", str(e)[:120])
print(
    torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 5, replacement=True),
    torch.bernoulli(torch.full((5,), 0.5)),
)

# losses as printed by lessons
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [0.0, 0.0, 3.0], [1.0, 1.0, 1.0]])
target = torch.tensor([0, 1, 2, 1])
print(F.cross_entropy(logits, target), F.cross_entropy(logits, target, reduction="none"))
print(
    F.cross_entropy(logits, target, label_smoothing=0.1),
    F.cross_entropy(logits, target, weight=torch.tensor([1.0, 2.0, 0.5])),
)
print(
    F.cross_entropy(logits, torch.tensor([0, -100, 2, 1])),
    F.cross_entropy(logits, torch.tensor([0, 1, 1, 1]), ignore_index=1),
)
print(F.cross_entropy(logits, F.softmax(logits * 2, dim=1)))
print(
    F.nll_loss(F.log_softmax(logits, 1), target),
    nn.NLLLoss(reduction="sum")(logits.log_softmax(1), target),
)
print(
    F.mse_loss(logits, torch.zeros_like(logits)),
    F.l1_loss(logits, torch.ones_like(logits)),
    F.smooth_l1_loss(logits, torch.ones_like(logits), beta=0.5),
    F.huber_loss(logits, torch.ones_like(logits), delta=1.5),
)
print(
    F.kl_div(F.log_softmax(logits, 1), F.softmax(logits.flip(0), 1), reduction="batchmean"),
    F.soft_margin_loss(logits[:, 0], torch.tensor([1.0, -1.0, 1.0, -1.0])),
)
print(
    F.margin_ranking_loss(
        logits[:, 0], logits[:, 1], torch.tensor([1.0, -1.0, 1.0, -1.0]), margin=0.5
    ),
    F.hinge_embedding_loss(logits, torch.ones_like(logits)),
)
print(
    F.cosine_embedding_loss(logits[:2], logits[2:], torch.tensor([1, -1])),
    F.triplet_margin_loss(logits[:1], logits[1:2], logits[2:3]),
)
print(
    F.poisson_nll_loss(logits, torch.ones_like(logits)),
    F.gaussian_nll_loss(logits, torch.zeros_like(logits), torch.ones_like(logits)),
    F.multilabel_soft_margin_loss(logits, (logits > 0.5).float()),
)
counts = torch.tensor([2, 0, 3, 1])  # integer regression targets
pred = torch.tensor([1.6, 0.4, 2.2, 1.1])
print(
    F.mse_loss(pred, counts),
    F.l1_loss(pred, counts),
    F.smooth_l1_loss(pred, counts),
    F.huber_loss(pred, counts, delta=0.5),
)
try:
    F.cross_entropy(logits, torch.tensor([0, 1, 3, 1]))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(logits, target.float())
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.nll_loss(logits, target[:3])
except ValueError as e:
    print("ValueError:", e)
print(
    nn.CrossEntropyLoss(),
    nn.CrossEntropyLoss(label_smoothing=0.2).label_smoothing,
    nn.MSELoss(reduction="sum"),
)

# --- distributions used in VAE/RL lessons: reparametrisation, transforms, mixtures ---
torch.manual_seed(8)
mu = torch.tensor([0.5, -0.5], requires_grad=True)
log_sigma = torch.tensor([0.0, -1.0], requires_grad=True)
q = D.Normal(mu, log_sigma.exp())
z = q.rsample((4,))
print(z.shape, z.grad_fn is not None)
kl = D.kl_divergence(q, D.Normal(torch.zeros(2), torch.ones(2))).sum()
kl_manual = (-log_sigma + (log_sigma.exp() ** 2 + mu**2) / 2 - 0.5).sum()
print("kl", kl, kl_manual, torch.allclose(kl, kl_manual))
(kl + z.pow(2).mean()).backward()
print(mu.grad, log_sigma.grad)
logn = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.ExpTransform()])
print(
    logn.sample((3,)),
    logn.log_prob(torch.tensor(1.0)),
    D.LogNormal(0.0, 1.0).log_prob(torch.tensor(1.0)),
)
mix = D.MixtureSameFamily(
    D.Categorical(torch.tensor([0.3, 0.7])),
    D.Normal(torch.tensor([-2.0, 2.0]), torch.tensor([0.5, 0.5])),
)
print(mix.sample((5,)), mix.log_prob(torch.tensor([0.0, 2.0])), mix.mean, mix.variance)
print(
    D.Categorical(probs=torch.tensor([0.5, 0.5])).enumerate_support(),
    D.Bernoulli(0.3).enumerate_support(),
)
print(
    D.Normal(0.0, 1.0).expand([3]).batch_shape,
    D.Normal(torch.zeros(2, 3), 1.0).batch_shape,
    D.Dirichlet(torch.ones(3)).sample().sum(),
)
print(
    D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.2, 0.8])).rsample(),
    D.Geometric(0.25).sample((4,)),
    D.StudentT(3.0).log_prob(torch.tensor(0.0)),
)
print(D.constraints.positive.check(torch.tensor([-1.0, 1.0])), D.Normal.arg_constraints)
cat = D.Categorical(logits=torch.tensor([0.2, 1.2, -0.4]))
actions = cat.sample((6,))
logp = cat.log_prob(actions)
print(
    "policy gradient sample",
    actions,
    logp,
    -(logp * torch.tensor([1.0, -1.0, 0.5, 2.0, 0.0, 1.0])).mean(),
)
print(
    torch.distributions.utils.logits_to_probs(torch.tensor([0.0, 1.0])),
    torch.distributions.utils.probs_to_logits(torch.tensor([0.25, 0.75])),
)
try:
    D.Categorical(probs=torch.tensor([0.5, 0.6])).log_prob(torch.tensor(3))
except ValueError as e:
    print("ValueError:", str(e)[:100])
