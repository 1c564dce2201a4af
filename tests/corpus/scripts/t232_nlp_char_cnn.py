"""Rao & McMahan style: a character-level CNN over one-hot surname matrices (Conv1d stacks, ELU, pooling), plus conv1d mechanics."""

import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(3)
torch.manual_seed(3)

letters = "abcdefghijklmnopqrstuvwxyz"
char_to_idx = {c: i + 1 for i, c in enumerate(letters)}  # 0 = pad
classes = ["Greek", "Polish", "Dutch"]
endings = {
    "Greek": ["opoulos", "akis", "idis"],
    "Polish": ["ski", "wicz", "czyk"],
    "Dutch": ["sen", "dijk", "van"],
}


def make(cls):
    stem = "".join(random.choice(letters) for _ in range(random.randint(2, 5)))
    return stem + random.choice(endings[cls])


data = [(make(c), i) for i, c in enumerate(classes) for _ in range(50)]
random.shuffle(data)
MAX_LEN = max(len(s) for s, _ in data) + 6
print("examples:", data[:4], "max len:", MAX_LEN)


def vectorize(surname, max_len=MAX_LEN):
    one_hot = torch.zeros(len(letters) + 1, max_len)
    for pos, ch in enumerate(surname):
        one_hot[char_to_idx[ch], pos] = 1
    return one_hot


m = vectorize("kowalski")
print("one-hot matrix:", m.shape, m.sum(0)[:10], m.dtype)
idx = torch.tensor([[char_to_idx[c] for c in s] + [0] * (MAX_LEN - len(s)) for s, _ in data])
X = F.one_hot(idx, num_classes=27).float().permute(0, 2, 1).contiguous()
X[:, 0, :] = 0  # the pad channel carries nothing
print("matrix for all:", X.shape, X.is_contiguous(), torch.equal(X[0], vectorize(data[0][0])))
Y = torch.tensor([c for _, c in data])

# conv1d mechanics
batch_size, one_hot_size, sequence_width = 2, 10, 7
data_t = torch.randn(batch_size, one_hot_size, sequence_width)
conv1 = nn.Conv1d(in_channels=one_hot_size, out_channels=16, kernel_size=3)
conv2 = nn.Conv1d(in_channels=16, out_channels=32, kernel_size=3)
conv3 = nn.Conv1d(in_channels=32, out_channels=64, kernel_size=3)
intermediate1 = conv1(data_t)
intermediate2 = conv2(intermediate1)
intermediate3 = conv3(intermediate2)
print(data_t.size(), intermediate1.size(), intermediate2.size(), intermediate3.size())
y_output = intermediate3.squeeze()
print("squeezed:", y_output.size())
print(
    "flatten:",
    intermediate1.view(batch_size, -1).size(),
    "mean:",
    torch.mean(intermediate1, dim=2).size(),
)
for kw in [
    dict(stride=2),
    dict(padding=1),
    dict(dilation=2),
    dict(padding="same"),
    dict(padding=2, padding_mode="circular"),
    dict(groups=2),
]:
    c = nn.Conv1d(10, 8, kernel_size=3, **kw)
    print(f"{kw!s:36} -> {tuple(c(data_t).shape)}  weight {tuple(c.weight.shape)}")
print(nn.Conv1d(10, 8, 3, padding=2, padding_mode="reflect", bias=False))
try:
    nn.Conv1d(10, 8, 3, stride=2, padding="same")
except ValueError as e:
    print("ValueError:", e)
try:
    conv1(torch.randn(2, 9, 7))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])

# by hand with unfold
w = conv1.weight
patches = data_t.unfold(dimension=2, size=3, step=1)
print("unfold:", patches.shape)
manual = torch.einsum("bcwk,ock->bow", patches, w) + conv1.bias[None, :, None]
print("manual conv == conv1:", torch.allclose(manual, intermediate1, atol=1e-5))
print("F.conv1d:", torch.allclose(F.conv1d(data_t, w, conv1.bias), intermediate1))

# pooling
s = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
print("max_pool1d:", F.max_pool1d(s, 2), "avg_pool1d:", F.avg_pool1d(s, 3, stride=1))
vals, inds = F.max_pool1d(s, 2, return_indices=True)
print("indices:", inds, "unpool:", F.max_unpool1d(vals, inds, 2))
print("adaptive max:", nn.AdaptiveMaxPool1d(1)(s), "adaptive avg 4:", nn.AdaptiveAvgPool1d(4)(s))
print(
    "pads:", nn.ConstantPad1d((1, 2), -1.0)(s), nn.ReflectionPad1d(2)(s), nn.ReplicationPad1d(1)(s)
)
print("F.pad:", F.pad(s, (0, 2)), F.pad(s, (1, 1), mode="circular"))
print("ELU:", F.elu(torch.tensor([-2.0, -0.5, 0.0, 1.0])), nn.ELU(alpha=0.5)(torch.tensor([-1.0])))


class SurnameCNN(nn.Module):
    def __init__(self, initial_num_channels, num_classes, num_channels):
        super().__init__()
        self.convnet = nn.Sequential(
            nn.Conv1d(in_channels=initial_num_channels, out_channels=num_channels, kernel_size=3),
            nn.ELU(),
            nn.Conv1d(in_channels=num_channels, out_channels=num_channels, kernel_size=3, stride=2),
            nn.ELU(),
            nn.Conv1d(in_channels=num_channels, out_channels=num_channels, kernel_size=3, stride=2),
            nn.ELU(),
            nn.Conv1d(in_channels=num_channels, out_channels=num_channels, kernel_size=2),
            nn.ELU(),
        )
        self.fc = nn.Linear(num_channels, num_classes)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x_surname, apply_softmax=False):
        features = self.convnet(x_surname)
        features = F.adaptive_max_pool1d(features, 1).squeeze(dim=2)
        prediction_vector = self.fc(self.dropout(features))
        if apply_softmax:
            prediction_vector = F.softmax(prediction_vector, dim=1)
        return prediction_vector


model = SurnameCNN(27, 3, 24)
print(model)
print("feature map:", model.convnet(X[:2]).shape)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
tr, va = slice(0, 120), slice(120, 150)
for epoch in range(8):
    model.train()
    perm = torch.randperm(120)
    for i in range(0, 120, 20):
        bi = perm[i : i + 20]
        loss = F.cross_entropy(model(X[bi]), Y[bi])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        vl = F.cross_entropy(model(X[va]), Y[va])
        acc = (model(X[va]).argmax(1) == Y[va]).float().mean()
    print(
        f"epoch {epoch}: train loss {loss.item():.4f} val loss {vl.item():.4f} val acc {acc.item():.3f}"
    )

with torch.no_grad():
    for name in ["papadopoulos", "nowakowski", "vandijk"]:
        p = model(vectorize(name).unsqueeze(0), apply_softmax=True)
        print(name, [f"{c}:{v:.3f}" for c, v in zip(classes, p[0].tolist())])

# which positions fire the most for a filter
feat = model.convnet[:2](X[:1])
print("first-layer activations:", feat.shape, "argmax positions:", feat[0].argmax(dim=1)[:8])
w0 = model.convnet[0].weight.detach()
print(
    "filter 0 favourite chars:",
    [letters[i - 1] if i > 0 else "_" for i in w0[0].argmax(dim=0).tolist()],
)

# parameter utilities
vec = nn.utils.parameters_to_vector(model.parameters())
print("n params:", vec.numel(), vec.shape)
nn.utils.vector_to_parameters(torch.zeros_like(vec), model.parameters())
print("all zero now:", all((p == 0).all() for p in model.parameters()))
wn = nn.utils.parametrizations.weight_norm(nn.Conv1d(4, 6, 3))
print("weight_norm params:", sorted(n for n, _ in wn.named_parameters()))
print("weight shape:", wn.weight.shape, "g shape:", wn.parametrizations.weight.original0.shape)
print(
    "norm check:",
    torch.allclose(
        wn.weight.flatten(1).norm(dim=1), wn.parametrizations.weight.original0.flatten()
    ),
)

# Conv2d over an embedding "image" (Kim CNN for text)
emb = nn.Embedding(27, 8, padding_idx=0)
e = emb(idx[:4]).unsqueeze(1)
print("embedded as image:", e.shape)
convs = nn.ModuleList([nn.Conv2d(1, 5, (k, 8)) for k in (2, 3, 4)])
pooled = [F.max_pool1d(F.relu(c(e)).squeeze(3), F.relu(c(e)).size(2)).squeeze(2) for c in convs]
print("kim feature shapes:", [p.shape for p in pooled], torch.cat(pooled, 1).shape)
