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
