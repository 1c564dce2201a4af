"""Every torch.distributions family the lessons use, printed: tests/test_distributions.py runs
it under real torch and under autoviz and compares the text."""

import torch

D = torch.distributions


torch.manual_seed(0)
cases = [
    ("Normal", lambda: D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))),
    ("Uniform", lambda: D.Uniform(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 3.0]))),
    ("Exponential", lambda: D.Exponential(torch.tensor([0.5, 2.0]))),
    ("Laplace", lambda: D.Laplace(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))),
    ("Cauchy", lambda: D.Cauchy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))),
    ("Gamma", lambda: D.Gamma(torch.tensor([0.5, 3.0]), torch.tensor([1.0, 2.0]))),
    ("Chi2", lambda: D.Chi2(torch.tensor([2.0, 5.0]))),
    ("Beta", lambda: D.Beta(torch.tensor([0.5, 2.0]), torch.tensor([1.5, 3.0]))),
    ("Dirichlet", lambda: D.Dirichlet(torch.tensor([[0.5, 1.0, 2.0], [2.0, 2.0, 2.0]]))),
    ("Poisson", lambda: D.Poisson(torch.tensor([0.5, 4.0, 15.0]))),
    ("Binomial", lambda: D.Binomial(torch.tensor([10.0, 40.0]), torch.tensor([0.3, 0.6]))),
    ("Geometric", lambda: D.Geometric(torch.tensor([0.3, 0.8]))),
    (
        "NegativeBinomial",
        lambda: D.NegativeBinomial(torch.tensor([3.0, 5.0]), torch.tensor([0.3, 0.6])),
    ),
    (
        "StudentT",
        lambda: D.StudentT(
            torch.tensor([3.0, 6.0]), torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])
        ),
    ),
    ("HalfNormal", lambda: D.HalfNormal(torch.tensor([1.0, 2.0]))),
    ("HalfCauchy", lambda: D.HalfCauchy(torch.tensor([1.0, 2.0]))),
    ("LogNormal", lambda: D.LogNormal(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 1.0]))),
    ("Gumbel", lambda: D.Gumbel(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))),
    ("Weibull", lambda: D.Weibull(torch.tensor([1.0, 2.0]), torch.tensor([1.5, 3.0]))),
    ("Pareto", lambda: D.Pareto(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 3.0]))),
    ("Kumaraswamy", lambda: D.Kumaraswamy(torch.tensor([2.0, 3.0]), torch.tensor([2.0, 1.5]))),
    ("InverseGamma", lambda: D.InverseGamma(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0]))),
    (
        "FisherSnedecor",
        lambda: D.FisherSnedecor(torch.tensor([3.0, 5.0]), torch.tensor([6.0, 8.0])),
    ),
    ("Bernoulli", lambda: D.Bernoulli(torch.tensor([0.3, 0.9]))),
    ("Categorical", lambda: D.Categorical(torch.tensor([0.2, 0.5, 0.3]))),
    ("OneHotCategorical", lambda: D.OneHotCategorical(torch.tensor([0.2, 0.5, 0.3]))),
    ("Multinomial", lambda: D.Multinomial(5, torch.tensor([0.2, 0.5, 0.3]))),
    (
        "MultivariateNormal",
        lambda: D.MultivariateNormal(
            torch.tensor([0.0, 1.0]), torch.tensor([[2.0, 0.5], [0.5, 1.0]])
        ),
    ),
    (
        "MultivariateNormalPrecision",
        lambda: D.MultivariateNormal(
            torch.tensor([0.0, 1.0]), precision_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]])
        ),
    ),
    (
        "LowRankMultivariateNormal",
        lambda: D.LowRankMultivariateNormal(
            torch.tensor([0.5, -1.0, 2.0]),
            torch.tensor([[1.0, 0.2], [0.3, -0.5], [0.0, 0.7]]),
            torch.tensor([0.5, 1.0, 2.0]),
        ),
    ),
    ("Wishart", lambda: D.Wishart(torch.tensor(5.0), torch.tensor([[2.0, 0.3], [0.3, 1.0]]))),
    (
        "WishartBatch",
        lambda: D.Wishart(torch.tensor([4.0, 6.0]), precision_matrix=2 * torch.eye(3)),
    ),
    ("LKJCholesky", lambda: D.LKJCholesky(3, torch.tensor(2.0))),
    ("LKJCholeskyBatch", lambda: D.LKJCholesky(4, torch.tensor([0.5, 1.5]))),
    ("Independent", lambda: D.Independent(D.Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)),
    (
        "MixtureSameFamily",
        lambda: D.MixtureSameFamily(
            D.Categorical(torch.tensor([0.3, 0.7])),
            D.Normal(torch.tensor([-1.0, 2.0]), torch.tensor([1.0, 0.5])),
        ),
    ),
    (
        "LogisticNormal",
        lambda: D.LogisticNormal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])),
    ),
    ("ContinuousBernoulli", lambda: D.ContinuousBernoulli(torch.tensor([0.2, 0.4995, 0.9]))),
    ("ContinuousBernoulliLogits", lambda: D.ContinuousBernoulli(logits=torch.tensor([-1.0, 2.0]))),
    (
        "GeneralizedPareto",
        lambda: D.GeneralizedPareto(
            torch.tensor([0.0, 1.0, 0.5]),
            torch.tensor([1.0, 2.0, 0.5]),
            torch.tensor([0.0, 0.3, -0.2]),
        ),
    ),
    (
        "VonMises",
        lambda: D.VonMises(torch.tensor([0.0, 1.0, -2.0]), torch.tensor([0.5, 4.0, 20.0])),
    ),
    (
        "RelaxedBernoulli",
        lambda: D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.2, 0.7])),
    ),
    (
        "RelaxedOneHotCategorical",
        lambda: D.RelaxedOneHotCategorical(torch.tensor(0.7), probs=torch.tensor([0.2, 0.3, 0.5])),
    ),
]
for name, make in cases:
    d = make()
    try:
        torch.manual_seed(1)
        s = d.sample((3,))
        print(name, "sample", s)
    except Exception as e:
        print(name, "sample ERR", type(e).__name__, e)
    for attr in ("mean", "variance", "entropy"):
        try:
            v = getattr(d, attr)
            v = v() if callable(v) else v
            print(name, attr, v)
        except Exception as e:
            print(name, attr, "ERR", type(e).__name__, str(e)[:80])
    try:
        torch.manual_seed(2)
        x = d.sample((2,))
        print(name, "log_prob", d.log_prob(x))
    except Exception as e:
        print(name, "log_prob ERR", type(e).__name__, str(e)[:80])
    print(name, "repr", d)
pairs = [
    (D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)),
    (D.Gamma(2.0, 1.0), D.Gamma(3.0, 2.0)),
    (D.Beta(2.0, 3.0), D.Beta(1.0, 1.0)),
    (D.Categorical(torch.tensor([0.2, 0.8])), D.Categorical(torch.tensor([0.5, 0.5]))),
    (D.Bernoulli(0.3), D.Bernoulli(0.6)),
    (D.Exponential(1.0), D.Exponential(2.0)),
    (D.Poisson(2.0), D.Poisson(3.0)),
    (D.Laplace(0.0, 1.0), D.Laplace(1.0, 2.0)),
    (D.Dirichlet(torch.tensor([1.0, 2.0])), D.Dirichlet(torch.tensor([2.0, 2.0]))),
    (D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0)),
    (
        D.MultivariateNormal(torch.zeros(2), torch.eye(2)),
        D.MultivariateNormal(torch.ones(2), 2 * torch.eye(2)),
    ),
    (D.LogNormal(0.0, 1.0), D.LogNormal(1.0, 1.0)),
    (D.HalfNormal(1.0), D.HalfNormal(2.0)),
]
for p, q in pairs:
    print("kl", type(p).__name__, D.kl_divergence(p, q))
loc = torch.tensor(0.5, requires_grad=True)
scale = torch.tensor(2.0, requires_grad=True)
n = D.Normal(loc, scale)
torch.manual_seed(3)
s = n.rsample((4,))
total = n.log_prob(s).sum()
total.backward()
print("grads", loc.grad, scale.grad)
p = torch.tensor([0.3, 0.8], requires_grad=True)
D.ContinuousBernoulli(p).log_prob(torch.tensor([0.1, 0.9])).sum().backward()
kappa = torch.tensor(2.0, requires_grad=True)
D.VonMises(torch.tensor(0.3), kappa).log_prob(torch.tensor(1.0)).backward()
print(p.grad, kappa.grad)
rate = torch.tensor(3.0, requires_grad=True)
D.Gamma(torch.tensor(2.0), rate).log_prob(torch.tensor(1.5)).backward()
print(rate.grad)
c = torch.tensor([2.0, 3.0], requires_grad=True)
D.Dirichlet(c).log_prob(torch.tensor([0.3, 0.7])).backward()
print(c.grad)
t = D.transforms.ComposeTransform(
    [D.transforms.AffineTransform(1.0, 2.0), D.transforms.ExpTransform()]
)
x = torch.tensor([0.1, 0.5])
print(t(x), t.inv(t(x)), t.log_abs_det_jacobian(x, t(x)))
print(
    D.transforms.StickBreakingTransform()(torch.tensor([0.2, -0.1])),
    D.biject_to(D.constraints.positive)(torch.tensor([0.0, 1.0])),
    D.transform_to(D.constraints.simplex)(torch.tensor([0.0, 1.0])),
)
print(
    D.constraints.positive,
    D.constraints.simplex,
    D.constraints.interval(0, 1),
    D.Normal(0.0, 1.0).support,
)
# cdf, icdf, mode, enumerate_support and expand, family by family
n = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
v = torch.tensor([0.5, -0.3], requires_grad=True)
c = n.cdf(v)
c.sum().backward()
print(c, v.grad, n.icdf(torch.tensor([0.9, 0.1])))
u = D.Uniform(torch.tensor([0.0, 1.0]), torch.tensor([2.0, 3.0]))
print(u.cdf(torch.tensor([0.5, 2.5])), u.icdf(torch.tensor([0.25, 0.5])), u.mode)
g = D.Gamma(torch.tensor([2.0, 0.5, 7.0]), torch.tensor([1.0, 3.0, 0.5]))
x = torch.tensor([1.5, 0.2, 20.0], requires_grad=True)
cg = g.cdf(x)
cg.sum().backward()
print(cg, x.grad, D.Chi2(torch.tensor([3.0])).cdf(torch.tensor([2.0])))
print(D.Kumaraswamy(torch.tensor([2.0, 0.5]), torch.tensor([3.0, 2.0])).mode)
m = D.MixtureSameFamily(
    D.Categorical(torch.tensor([0.3, 0.7])), D.Normal(torch.tensor([-1.0, 1.0]), torch.ones(2))
)
print(m.cdf(torch.tensor([0.0, 1.0])), m.expand((2,)).log_prob(torch.zeros(2)))
i = D.Independent(D.Bernoulli(torch.tensor([0.2, 0.5])), 0)
print(i.has_enumerate_support, i.enumerate_support(), D.Bernoulli(0.3).enumerate_support(False))
e = n.expand((3, 2))
print(e, e.batch_shape, e.sample().shape, e.log_prob(torch.zeros(3, 2)).shape)
cat = D.Categorical(torch.tensor([0.2, 0.8])).expand((4,))
print(cat.batch_shape, cat.probs.shape, cat.sample().shape)
ind = D.Independent(D.Normal(torch.zeros(2), torch.ones(2)), 1).expand((3,))
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(3, 2)))
print(D.OneHotCategorical(torch.tensor([0.5, 0.5])).expand((3,)).sample().shape)
print(D.LogNormal(0.0, 1.0).expand((2,)).log_prob(torch.ones(2)))
print(D.Binomial(10, torch.tensor([0.5])).expand((2, 1)).total_count.shape)
print(D.Dirichlet(torch.ones(3)).expand((2,)).sample().shape)
try:
    n.expand((3,))
except RuntimeError as error:
    print(error)
mvn = D.MultivariateNormal(torch.zeros(3), covariance_matrix=torch.eye(3) * 2).expand((3,))
print(mvn.batch_shape, mvn.log_prob(torch.zeros(3, 3)), mvn.covariance_matrix.shape)
print(D.Bernoulli(torch.tensor([0.2, 0.5, 0.9])).mode)
# the Cholesky-based families' gradients: through the covariance, its low-rank factor, the
# Wishart scale and the LKJ concentration
cov = torch.tensor([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 1.5]], requires_grad=True)
mvn = D.MultivariateNormal(torch.zeros(3), covariance_matrix=cov)
torch.manual_seed(4)
(mvn.log_prob(mvn.sample((5,))).sum() + mvn.entropy()).backward()
print(cov.grad, D.kl_divergence(mvn, D.MultivariateNormal(torch.ones(3), torch.eye(3))))
w = torch.tensor([[1.0, 0.2], [0.3, -0.5], [0.0, 0.7]], requires_grad=True)
diag = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
lr = D.LowRankMultivariateNormal(torch.zeros(3), w, diag)
(lr.log_prob(torch.tensor([0.3, -0.2, 1.0])) + lr.precision_matrix.sum()).backward()
print(w.grad, diag.grad, lr.scale_tril, lr.covariance_matrix)
scale = torch.tensor([[2.0, 0.3], [0.3, 1.0]], requires_grad=True)
wish = D.Wishart(4.0, scale_tril=torch.linalg.cholesky(scale))
wish.log_prob(torch.tensor([[3.0, 0.5], [0.5, 2.0]])).backward()
print(scale.grad, wish.mean, wish.variance, wish.entropy())
eta = torch.tensor(1.5, requires_grad=True)
lkj = D.LKJCholesky(3, eta)
torch.manual_seed(5)
lkj.log_prob(lkj.sample()).backward()
print(eta.grad)
x = torch.tensor([0.3, -1.2, 0.5])
corr = D.CorrCholeskyTransform()
print(corr(x), corr.inv(corr(x)), corr.log_abs_det_jacobian(x, corr(x)))
pd = D.transform_to(D.constraints.positive_definite)
print(pd(torch.tensor([[0.5, 0.2], [-0.3, 0.1]])), D.biject_to(D.constraints.corr_cholesky))
