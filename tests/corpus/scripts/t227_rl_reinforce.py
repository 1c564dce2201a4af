"""Spinning Up / Lapan style: REINFORCE with reward-to-go and a baseline on a toy corridor environment written here."""

import collections

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)


class Corridor:
    """Agent starts in the middle of a 1-D corridor; +1 for reaching the right end, -1 for the left; small step cost."""

    def __init__(self, n=7, max_steps=20):
        self.n, self.max_steps = n, max_steps
        self.observation_size, self.n_actions = n, 2

    def _obs(self):
        o = np.zeros(self.n, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def reset(self):
        self.pos, self.t = self.n // 2, 0
        return self._obs()

    def step(self, action: int) -> tuple[np.ndarray, float, bool]:
        self.t += 1
        self.pos += 1 if action == 1 else -1
        if self.pos <= 0:
            return self._obs(), -1.0, True
        if self.pos >= self.n - 1:
            return self._obs(), 1.0, True
        return self._obs(), -0.01, self.t >= self.max_steps


env = Corridor()
obs = env.reset()
print("obs:", obs, obs.dtype)
print("step right:", env.step(1))

GAMMA = 0.99
LR = 0.01
EPISODES_TO_TRAIN = 4


class PGN(nn.Module):
    def __init__(self, input_size: int, n_actions: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(input_size, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


def calc_qvals(rewards: list[float]) -> list[float]:
    res = []
    sum_r = 0.0
    for r in reversed(rewards):
        sum_r *= GAMMA
        sum_r += r
        res.append(sum_r)
    return list(reversed(res))


print("qvals:", [round(q, 4) for q in calc_qvals([-0.01, -0.01, 1.0])])

net = PGN(env.observation_size, env.n_actions)
print(net)
optimizer = optim.Adam(net.parameters(), lr=LR)

logits = net(torch.as_tensor(obs).unsqueeze(0))
dist = Categorical(logits=logits)
print("dist:", dist)
print("probs:", dist.probs, "entropy:", dist.entropy())
a = dist.sample()
print("sample:", a, a.dtype, "log_prob:", dist.log_prob(a))
print("batch_shape:", dist.batch_shape, "event_shape:", dist.event_shape)
d2 = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print(
    "probs dist logits:",
    d2.logits,
    "mean-ish sample counts:",
    torch.bincount(d2.sample((1000,)), minlength=3),
)
print("enumerate_support:", d2.enumerate_support())
try:
    Categorical(probs=torch.tensor([0.2, -0.3, 0.5]))
except ValueError as e:
    print("ValueError:", str(e)[:90])


def run_episode(env, net):
    states, actions, rewards = [], [], []
    s = env.reset()
    done = False
    while not done:
        with torch.no_grad():
            logits = net(torch.from_numpy(s))
        action = Categorical(logits=logits).sample().item()
        s2, r, done = env.step(action)
        states.append(s)
        actions.append(action)
        rewards.append(r)
        s = s2
    return states, actions, rewards


total_rewards = []
batch_states, batch_actions, batch_qvals = [], [], []
episodes = 0
reward_sum = 0.0
for ep in range(60):
    st, ac, rw = run_episode(env, net)
    total_rewards.append(sum(rw))
    batch_states.extend(st)
    batch_actions.extend(ac)
    q = calc_qvals(rw)
    reward_sum += sum(q)
    batch_qvals.extend(q)
    episodes += 1
    if episodes < EPISODES_TO_TRAIN:
        continue
    states_t = torch.as_tensor(np.asarray(batch_states))
    actions_t = torch.as_tensor(batch_actions, dtype=torch.long)
    qvals_t = torch.as_tensor(batch_qvals, dtype=torch.float32)
    baseline = qvals_t.mean()
    adv = qvals_t - baseline

    optimizer.zero_grad()
    logits_v = net(states_t)
    log_prob_v = torch.log_softmax(logits_v, dim=1)
    log_p_a = log_prob_v[range(len(batch_states)), actions_t]
    log_p_a2 = log_prob_v.gather(1, actions_t.unsqueeze(-1)).squeeze(-1)
    assert torch.allclose(log_p_a, log_p_a2)
    loss_v = -(adv * log_p_a).mean()
    entropy = -(log_prob_v.exp() * log_prob_v).sum(dim=1).mean()
    (loss_v - 0.01 * entropy).backward()
    optimizer.step()
    if ep % 8 == 3:
        m100 = float(np.mean(total_rewards[-8:]))
        print(
            f"ep {ep:3d}: batch {len(batch_states):3d} loss {loss_v.item():+.4f} entropy {entropy.item():.4f} mean reward {m100:.3f}"
        )
    episodes = 0
    batch_states.clear()
    batch_actions.clear()
    batch_qvals.clear()

# greedy policy after training
with torch.no_grad():
    probs = torch.softmax(net(torch.eye(env.n)), dim=1)
print("P(right) per cell:", probs[:, 1])
print("greedy:", probs.argmax(dim=1).tolist())

# the same loss through Categorical.log_prob, and the vanilla policy gradient estimator check
states_t = torch.eye(env.n)[1:-1]
acts = torch.tensor([1, 1, 0, 1, 0])
ret = torch.tensor([1.0, 0.5, -0.2, 0.3, 0.1])
pi = Categorical(logits=net(states_t))
lp = pi.log_prob(acts)
loss = -(lp * ret).mean()
net.zero_grad()
loss.backward()
g = net.net[0].weight.grad
print("lp:", lp)
print(
    "loss:",
    loss,
    "grad norm:",
    g.norm(),
    "grad nonzero cols:",
    (g.abs().sum(0) > 0).nonzero().flatten(),
)
print(
    "kl to uniform:", torch.distributions.kl_divergence(pi, Categorical(logits=torch.zeros(5, 2)))
)

# discounting with torch ops
r = torch.tensor([0.0, 0.0, 1.0, 0.0, 1.0])
disc = GAMMA ** torch.arange(len(r), dtype=torch.float32)
rtg = torch.flip(torch.cumsum(torch.flip(r * disc, [0]), 0), [0]) / disc
print("reward-to-go:", rtg)
print("matches calc_qvals:", torch.allclose(rtg, torch.tensor(calc_qvals(r.tolist()))))
norm_rtg = (rtg - rtg.mean()) / (rtg.std() + 1e-8)
print("normalised:", norm_rtg)
counter = collections.Counter(run_episode(env, net)[1])
print("action counts in one episode:", dict(sorted(counter.items())))

# discount factors as a numpy array, applied to a tensor of rewards
disc_np = GAMMA ** np.arange(len(r))
weighted = r * disc_np
print("r * numpy discounts:", type(weighted).__name__, weighted)
print("discounted return:", float(weighted.sum()))
