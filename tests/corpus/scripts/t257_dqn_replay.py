"""DQN with replay memory (namedtuple + deque), SmoothL1 loss and soft target updates,
on a toy 1-D corridor environment instead of CartPole."""

import math
import random
from collections import deque, namedtuple
from itertools import count

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

random.seed(0)
torch.manual_seed(0)


class Corridor:
    """State: one-hot position plus normalised position; actions: 0 left, 1 right. Goal at the right end."""

    def __init__(self, n=6):
        self.n = n
        self.pos = 0

    def reset(self):
        self.pos = random.randint(0, 2)
        return self._obs(), {}

    def _obs(self):
        o = [0.0] * self.n
        o[self.pos] = 1.0
        return o + [self.pos / (self.n - 1)]

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        terminated = self.pos == self.n - 1
        reward = 1.0 if terminated else -0.05
        return self._obs(), reward, terminated, False, {}


env = Corridor()
Transition = namedtuple("Transition", ("state", "action", "next_state", "reward"))
t0 = Transition([1.0], 0, None, -1.0)
print(t0, t0._fields, t0.reward)


class ReplayMemory(object):
    def __init__(self, capacity):
        self.memory = deque(maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super(DQN, self).__init__()
        self.layer1 = nn.Linear(n_observations, 32)
        self.layer2 = nn.Linear(32, 32)
        self.layer3 = nn.Linear(32, n_actions)

    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)


BATCH_SIZE = 32
GAMMA = 0.9
EPS_START = 0.9
EPS_END = 0.05
EPS_DECAY = 200
TAU = 0.05
LR = 1e-3

n_actions = 2
state, info = env.reset()
n_observations = len(state)
policy_net = DQN(n_observations, n_actions)
target_net = DQN(n_observations, n_actions)
print(target_net.load_state_dict(policy_net.state_dict()))
print(policy_net)
optimizer = optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
print(optimizer.defaults)
memory = ReplayMemory(1000)
steps_done = 0


def select_action(state):
    global steps_done
    sample = random.random()
    eps_threshold = EPS_END + (EPS_START - EPS_END) * math.exp(-1.0 * steps_done / EPS_DECAY)
    steps_done += 1
    if sample > eps_threshold:
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    else:
        return torch.tensor([[random.randrange(n_actions)]], dtype=torch.long)


losses = []


def optimize_model():
    if len(memory) < BATCH_SIZE:
        return
    transitions = memory.sample(BATCH_SIZE)
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(
        tuple(map(lambda s: s is not None, batch.next_state)), dtype=torch.bool
    )
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    losses.append(loss.item())


episode_durations = []
num_episodes = 30
for i_episode in range(num_episodes):
    state, info = env.reset()
    state = torch.tensor(state, dtype=torch.float32).unsqueeze(0)
    for t in count():
        action = select_action(state)
        observation, reward, terminated, truncated, _ = env.step(action.item())
        reward = torch.tensor([reward])
        done = terminated or truncated or t >= 30
        if terminated:
            next_state = None
        else:
            next_state = torch.tensor(observation, dtype=torch.float32).unsqueeze(0)
        memory.push(state, action, next_state, reward)
        state = next_state
        optimize_model()
        target_net_state_dict = target_net.state_dict()
        policy_net_state_dict = policy_net.state_dict()
        for key in policy_net_state_dict:
            target_net_state_dict[key] = policy_net_state_dict[key] * TAU + target_net_state_dict[
                key
            ] * (1 - TAU)
        target_net.load_state_dict(target_net_state_dict)
        if done:
            episode_durations.append(t + 1)
            break
    if i_episode % 5 == 0:
        last = losses[-1] if losses else float("nan")
        print(
            f"episode {i_episode:2d} duration {episode_durations[-1]:2d} memory {len(memory):4d} last loss {last:.5f}"
        )

print("Complete")
print("durations", episode_durations)
print("steps_done", steps_done, "num updates", len(losses))
durations_t = torch.tensor(episode_durations, dtype=torch.float)
if len(durations_t) >= 10:
    means = durations_t.unfold(0, 10, 1).mean(1).view(-1)
    means = torch.cat((torch.zeros(9), means))
    print("moving average", means[-5:])
with torch.no_grad():
    all_states = torch.eye(6)
    all_states = torch.cat([all_states, torch.arange(6.0).unsqueeze(1) / 5], dim=1)
    q = policy_net(all_states)
print("Q values per state:\n", q)
print("greedy policy", q.argmax(dim=1).tolist())
print(
    "target/policy diff",
    sum(
        (a - b).abs().sum() for a, b in zip(target_net.parameters(), policy_net.parameters())
    ).item(),
)
print(
    "SmoothL1 vs Huber",
    F.smooth_l1_loss(torch.tensor([0.5, 2.0]), torch.zeros(2), beta=1.0),
    F.huber_loss(torch.tensor([0.5, 2.0]), torch.zeros(2), delta=1.0),
    F.smooth_l1_loss(torch.tensor([0.5, 2.0]), torch.zeros(2), beta=0.5, reduction="none"),
)
