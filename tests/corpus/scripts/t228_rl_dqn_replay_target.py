"""Lapan style: DQN with an experience replay buffer, epsilon-greedy agent, target network sync, Double-DQN and dueling heads, on a toy grid."""

import collections
import copy
import dataclasses
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SEED = 1
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)


class GridWorld:
    """4x4 grid; start top-left, goal bottom-right (+1), a pit at (1, 2) (-1). Actions: up, down, left, right."""

    size = 4
    moves = [(-1, 0), (1, 0), (0, -1), (0, 1)]

    def reset(self):
        self.r, self.c, self.t = 0, 0, 0
        return self.obs()

    def obs(self):
        o = np.zeros((2, self.size, self.size), dtype=np.float32)
        o[0, self.r, self.c] = 1.0
        o[1, 1, 2] = 1.0
        return o

    def step(self, a):
        dr, dc = self.moves[a]
        self.r = min(max(self.r + dr, 0), self.size - 1)
        self.c = min(max(self.c + dc, 0), self.size - 1)
        self.t += 1
        if (self.r, self.c) == (3, 3):
            return self.obs(), 1.0, True
        if (self.r, self.c) == (1, 2):
            return self.obs(), -1.0, True
        return self.obs(), -0.02, self.t >= 30


@dataclasses.dataclass
class Experience:
    state: np.ndarray
    action: int
    reward: float
    done_trunc: bool
    new_state: np.ndarray


class ExperienceBuffer:
    def __init__(self, capacity: int):
        self.buffer = collections.deque(maxlen=capacity)

    def __len__(self):
        return len(self.buffer)

    def append(self, experience: Experience):
        self.buffer.append(experience)

    def sample(self, batch_size: int):
        indices = np.random.choice(len(self), batch_size, replace=False)
        return [self.buffer[idx] for idx in indices]


class DQN(nn.Module):
    def __init__(self, in_ch, n_actions):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(in_ch, 16, kernel_size=2),
            nn.ReLU(),
            nn.Conv2d(16, 16, kernel_size=2),
            nn.ReLU(),
            nn.Flatten(),
        )
        size = self.conv(torch.zeros(1, in_ch, 4, 4)).size()[-1]
        self.fc = nn.Sequential(nn.Linear(size, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, x):
        return self.fc(self.conv(x))


class DuelingDQN(DQN):
    def __init__(self, in_ch, n_actions):
        super().__init__(in_ch, n_actions)
        size = self.fc[0].in_features
        self.fc_adv = nn.Sequential(nn.Linear(size, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.fc_val = nn.Sequential(nn.Linear(size, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        h = self.conv(x)
        adv, val = self.fc_adv(h), self.fc_val(h)
        return val + (adv - adv.mean(dim=1, keepdim=True))


class Agent:
    def __init__(self, env, buffer):
        self.env, self.exp_buffer = env, buffer
        self._reset()

    def _reset(self):
        self.state = self.env.reset()
        self.total_reward = 0.0

    @torch.no_grad()
    def play_step(self, net, epsilon=0.0):
        done_reward = None
        if np.random.random() < epsilon:
            action = random.randrange(4)
        else:
            state_v = torch.as_tensor(self.state).unsqueeze(0)
            q_vals_v = net(state_v)
            _, act_v = torch.max(q_vals_v, dim=1)
            action = int(act_v.item())
        new_state, reward, is_done = self.env.step(action)
        self.total_reward += reward
        self.exp_buffer.append(Experience(self.state, action, reward, is_done, new_state))
        self.state = new_state
        if is_done:
            done_reward = self.total_reward
            self._reset()
        return done_reward


def batch_to_tensors(batch):
    states, actions, rewards, dones, new_state = [], [], [], [], []
    for e in batch:
        states.append(e.state)
        actions.append(e.action)
        rewards.append(e.reward)
        dones.append(e.done_trunc)
        new_state.append(e.new_state)
    return (
        torch.as_tensor(np.asarray(states)),
        torch.LongTensor(actions),
        torch.FloatTensor(rewards),
        torch.BoolTensor(dones),
        torch.as_tensor(np.asarray(new_state)),
    )


GAMMA = 0.9


def calc_loss(batch, net, tgt_net, double=False):
    states_t, actions_t, rewards_t, dones_t, new_states_t = batch_to_tensors(batch)
    state_action_values = net(states_t).gather(1, actions_t.unsqueeze(-1)).squeeze(-1)
    with torch.no_grad():
        if double:
            next_actions = net(new_states_t).max(1)[1]
            next_state_values = (
                tgt_net(new_states_t).gather(1, next_actions.unsqueeze(-1)).squeeze(-1)
            )
        else:
            next_state_values = tgt_net(new_states_t).max(1)[0]
        next_state_values[dones_t] = 0.0
        next_state_values = next_state_values.detach()
    expected = next_state_values * GAMMA + rewards_t
    return nn.MSELoss()(state_action_values, expected)


env = GridWorld()
print("obs shape:", env.reset().shape)
net = DQN(2, 4)
tgt_net = DQN(2, 4)
print(net)
print("conv output size:", net.fc[0].in_features)
print("q values of start:", net(torch.as_tensor(env.reset())[None]))
print(
    "tgt == net before sync:",
    all(
        torch.equal(a, b) for a, b in zip(net.state_dict().values(), tgt_net.state_dict().values())
    ),
)
tgt_net.load_state_dict(net.state_dict())
print(
    "tgt == net after sync:",
    all(
        torch.equal(a, b) for a, b in zip(net.state_dict().values(), tgt_net.state_dict().values())
    ),
)

buffer = ExperienceBuffer(500)
agent = Agent(env, buffer)
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
EPS_START, EPS_FINAL, EPS_DECAY = 1.0, 0.05, 400
total_rewards = []
for frame_idx in range(1, 601):
    epsilon = max(EPS_FINAL, EPS_START - frame_idx / EPS_DECAY)
    reward = agent.play_step(net, epsilon)
    if reward is not None:
        total_rewards.append(reward)
    if len(buffer) < 64:
        continue
    if frame_idx % 50 == 0:
        tgt_net.load_state_dict(net.state_dict())
    optimizer.zero_grad()
    batch = buffer.sample(32)
    loss_t = calc_loss(batch, net, tgt_net, double=frame_idx > 300)
    loss_t.backward()
    gn = nn.utils.clip_grad_norm_(net.parameters(), 10.0)
    optimizer.step()
    if frame_idx % 100 == 0:
        m = np.mean(total_rewards[-10:]) if total_rewards else float("nan")
        print(
            f"{frame_idx}: done {len(total_rewards)} games, mean reward {m:.3f}, eps {epsilon:.2f}, loss {loss_t.item():.5f}, grad norm {gn.item():.4f}"
        )

print("buffer len:", len(buffer), "maxlen:", buffer.buffer.maxlen)
s, a, r, d, ns = batch_to_tensors(buffer.sample(5))
print(
    "batch dtypes:", s.dtype, a.dtype, r.dtype, d.dtype, "shapes:", tuple(s.shape), tuple(a.shape)
)
print("dones:", d, "rewards:", r)
with torch.no_grad():
    q = net(s)
print("q:", q)
print("max(1):", q.max(1))
print("argmax:", q.argmax(dim=1), "gather:", q.gather(1, a.unsqueeze(1)).squeeze(1))

# greedy policy map
arrows = "^v<>"
with torch.no_grad():
    rows = []
    for rr in range(4):
        line = ""
        for cc in range(4):
            env.r, env.c = rr, cc
            line += arrows[net(torch.as_tensor(env.obs())[None]).argmax().item()]
        rows.append(line)
print("\n".join(rows))

# soft (polyak) target update through state_dict
tau = 0.05
tgt_sd = tgt_net.state_dict()
for k, v in net.state_dict().items():
    tgt_sd[k] = tgt_sd[k] * (1 - tau) + v * tau
tgt_net.load_state_dict(tgt_sd)
print("after polyak:", tgt_net.fc[2].bias)
with torch.no_grad():
    for tp, p in zip(tgt_net.parameters(), net.parameters()):
        tp.data.mul_(1 - tau).add_(tau * p.data)
print("after in-place polyak:", tgt_net.fc[2].bias)

# dueling head and huber loss
duel = DuelingDQN(2, 4)
qd = duel(s)
print(
    "dueling q:",
    qd.shape,
    "adv centred:",
    torch.allclose((qd - duel.fc_val(duel.conv(s))).mean(1), torch.zeros(5), atol=1e-6),
)
print(
    "smooth_l1:",
    F.smooth_l1_loss(qd.max(1).values, r),
    "huber:",
    nn.HuberLoss(delta=0.5)(qd.max(1).values, r),
)
frozen = copy.deepcopy(duel)
frozen.requires_grad_(False)
print(
    "deepcopy params require grad:",
    any(p.requires_grad for p in frozen.parameters()),
    "orig:",
    all(p.requires_grad for p in duel.parameters()),
)
try:
    net.load_state_dict(duel.state_dict())
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
print(net.load_state_dict(duel.state_dict(), strict=False))

# first-edition style: done flags as a ByteTensor mask
dones_np = np.array([False, True, False, True, False])
done_mask = torch.ByteTensor(dones_np)
print("done_mask:", done_mask, done_mask.dtype)
next_vals = torch.tensor([0.5, 0.7, 0.9, 1.1, 1.3])
next_vals[done_mask.bool()] = 0.0
print("with .bool() mask:", next_vals)
legacy = torch.tensor([0.5, 0.7, 0.9, 1.1, 1.3])
print("indexing with the uint8 mask:", legacy[done_mask])
try:
    legacy[done_mask] = 0.0
    print("with uint8 mask:", legacy)
except RuntimeError as e:
    print("RuntimeError:", e)


# a state-action value network Q(s, a): the state and a one-hot action concatenated
class SAValue(nn.Module):
    def __init__(self, obs_size, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_size + n_actions, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, obs, act_onehot):
        x = torch.cat([obs, act_onehot], dim=1)
        return self.net(x).squeeze(-1)


flat_states = s.flatten(1)
onehot = F.one_hot(a, num_classes=4)
print(
    "cat dtypes:",
    flat_states.dtype,
    onehot.dtype,
    "->",
    torch.cat([flat_states, onehot], dim=1).dtype,
)
sa = SAValue(flat_states.shape[1], 4)
print("Q(s,a):", sa(flat_states, onehot))
