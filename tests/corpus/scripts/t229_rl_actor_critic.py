"""Spinning Up / Lapan style: advantage actor-critic with GAE and a PPO clipped objective, discrete and Gaussian policies, on toy vectorised envs."""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Bernoulli, Categorical, Independent, Normal

torch.manual_seed(4)


class VecBandit:
    """N copies of a 3-armed contextual bandit with a 4-d context; batched in torch."""

    def __init__(self, n_envs=8):
        self.n = n_envs
        g = torch.Generator().manual_seed(123)
        self.W = torch.randn(4, 3, generator=g)

    def reset(self):
        self.ctx = torch.randn(self.n, 4)
        self.t = torch.zeros(self.n, dtype=torch.long)
        return self.ctx.clone()

    def step(self, actions):
        means = self.ctx @ self.W
        rew = means.gather(1, actions[:, None]).squeeze(1) + 0.1 * torch.randn(self.n)
        self.t += 1
        done = self.t >= 5
        self.ctx = torch.where(
            done[:, None], torch.randn(self.n, 4), self.ctx + 0.3 * torch.randn(self.n, 4)
        )
        self.t[done] = 0
        return self.ctx.clone(), rew, done


def mlp(sizes, activation=nn.Tanh, output_activation=nn.Identity):
    layers = []
    for j in range(len(sizes) - 1):
        act = activation if j < len(sizes) - 2 else output_activation
        layers += [nn.Linear(sizes[j], sizes[j + 1]), act()]
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_act, hidden=32):
        super().__init__()
        self.body = mlp([obs_dim, hidden, hidden], output_activation=nn.Tanh)
        self.pi = nn.Linear(hidden, n_act)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def discount_cumsum_gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    adv = torch.zeros_like(rewards)
    lastgaelam = torch.zeros(rewards.shape[1])
    for t in reversed(range(T)):
        next_v = last_value if t == T - 1 else values[t + 1]
        nonterminal = 1.0 - dones[t].float()
        delta = rewards[t] + gamma * next_v * nonterminal - values[t]
        lastgaelam = delta + gamma * lam * nonterminal * lastgaelam
        adv[t] = lastgaelam
    return adv, adv + values


env = VecBandit()
ac = ActorCritic(4, 3)
print(ac)
opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
obs = env.reset()
print("obs:", obs.shape, obs.dtype)

T = 10
for it in range(8):
    buf_obs, buf_act, buf_logp, buf_rew, buf_done, buf_val = [], [], [], [], [], []
    for t in range(T):
        with torch.no_grad():
            dist, v = ac(obs)
            a = dist.sample()
        nobs, r, d = env.step(a)
        buf_obs.append(obs)
        buf_act.append(a)
        buf_logp.append(dist.log_prob(a))
        buf_rew.append(r)
        buf_done.append(d)
        buf_val.append(v)
        obs = nobs
    with torch.no_grad():
        _, last_v = ac(obs)
    obs_b = torch.stack(buf_obs)
    act_b, logp_old = torch.stack(buf_act), torch.stack(buf_logp)
    rew_b, done_b, val_b = torch.stack(buf_rew), torch.stack(buf_done), torch.stack(buf_val)
    adv, ret = discount_cumsum_gae(rew_b, val_b, done_b, last_v)
    if it == 0:
        print("rollout shapes:", obs_b.shape, act_b.shape, logp_old.shape, adv.shape, done_b.dtype)
    flat = lambda x: x.reshape(T * env.n, *x.shape[2:])
    o, a_, lp_old, A, R = map(flat, (obs_b, act_b, logp_old, adv, ret))
    A = (A - A.mean()) / (A.std() + 1e-8)
    for epoch in range(4):
        dist, v = ac(o)
        logp = dist.log_prob(a_)
        ratio = torch.exp(logp - lp_old)
        clip_adv = torch.clamp(ratio, 1 - 0.2, 1 + 0.2) * A
        loss_pi = -(torch.min(ratio * A, clip_adv)).mean()
        loss_v = F.mse_loss(v, R)
        ent = dist.entropy().mean()
        loss = loss_pi + 0.5 * loss_v - 0.01 * ent
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(ac.parameters(), 0.5)
        opt.step()
    approx_kl = (lp_old - logp).mean().item()
    clipfrac = torch.as_tensor(ratio.gt(1.2) | ratio.lt(0.8), dtype=torch.float32).mean().item()
    ev = 1 - torch.var(R - v.detach()) / torch.var(R)
    print(
        f"it {it}: reward {rew_b.mean():+.4f} pi {loss_pi.item():+.4f} v {loss_v.item():.4f} ent {ent.item():.4f} kl {approx_kl:+.5f} clipfrac {clipfrac:.3f} ev {ev.item():+.3f}"
    )

# does the policy pick the best arm?
ctx = torch.randn(200, 4)
best = (ctx @ env.W).argmax(1)
with torch.no_grad():
    d, _ = ac(ctx)
print("greedy accuracy:", (d.probs.argmax(1) == best).float().mean())
print("mean max prob:", d.probs.max(-1).values.mean())

# --- plain one-step actor-critic loss, step by step
dist, value = ac(obs[:3])
action = dist.sample()
reward = torch.tensor([1.0, 0.0, -1.0])
next_value = torch.tensor([0.5, 0.2, 0.1])
td_target = reward + 0.99 * next_value
advantage = td_target - value
actor_loss = -(dist.log_prob(action) * advantage.detach()).mean()
critic_loss = advantage.pow(2).mean()
print("value:", value)
print("advantage:", advantage)
print("actor loss:", actor_loss, "critic loss:", critic_loss)
ac.zero_grad()
(actor_loss + critic_loss).backward()
print("pi grad norm:", ac.pi.weight.grad.norm(), "v grad norm:", ac.v.weight.grad.norm())
ac.zero_grad(set_to_none=True)
print("grad after zero_grad(set_to_none):", ac.pi.weight.grad)


# --- a Gaussian policy for continuous actions (Spinning Up MLPGaussianActor)
class GaussianActor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.log_std = nn.Parameter(-0.5 * torch.ones(act_dim, dtype=torch.float32))
        self.mu_net = mlp([obs_dim, 16, act_dim])

    def forward(self, obs, act=None):
        mu = self.mu_net(obs)
        pi = Normal(mu, torch.exp(self.log_std))
        logp = pi.log_prob(act).sum(axis=-1) if act is not None else None
        return pi, logp


gact = GaussianActor(4, 2)
pi, _ = gact(obs[:3])
print("Normal:", pi)
print("loc:", pi.loc, "scale:", pi.scale)
a = pi.sample()
_, logp = gact(obs[:3], a)
print("action:", a, "logp:", logp)
ind = Independent(pi, 1)
print("Independent:", ind.batch_shape, ind.event_shape, torch.allclose(ind.log_prob(a), logp))
print("entropy:", pi.entropy().sum(-1), ind.entropy())
ra = pi.rsample()
sq = torch.tanh(ra)
logp_sq = pi.log_prob(ra).sum(-1) - (2 * (np.log(2) - ra - F.softplus(-2 * ra))).sum(-1)
print(
    "squashed action in (-1,1):",
    bool((sq.abs() < 1).all()),
    "rsample has grad:",
    ra.requires_grad,
    "tanh-corrected logp:",
    logp_sq,
)
logp_sq.sum().backward()
print("log_std grad:", gact.log_std.grad)
print(
    "normal cdf/icdf:",
    Normal(0.0, 1.0).cdf(torch.tensor([0.0, 1.96])),
    Normal(0.0, 1.0).icdf(torch.tensor([0.5, 0.975])),
)
b = Bernoulli(logits=torch.tensor([0.0, 2.0, -1.0]))
print(
    "Bernoulli probs:", b.probs, "log_prob(1):", b.log_prob(torch.ones(3)), "entropy:", b.entropy()
)
print("mean/variance:", b.mean, b.variance, pi.mean.shape, pi.stddev)
try:
    Normal(torch.zeros(2), torch.tensor([1.0, -1.0]))
except ValueError as e:
    print("ValueError:", str(e)[:60])
