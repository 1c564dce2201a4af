"""LLM from scratch, ch.6: classification fine-tuning -- padding, a new head, frozen layers, last-token logits, accuracy."""

import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
ham_words = ["hey", "see", "you", "at", "lunch", "ok", "call", "me", "later", "home"]
spam_words = ["win", "free", "cash", "prize", "now", "click", "claim", "offer", "urgent", "txt"]
rows = []
for i in range(60):
    label = i % 3 == 0  # imbalanced on purpose
    words = spam_words if label else ham_words
    rows.append((" ".join(random.choice(words) for _ in range(random.randint(2, 5))), int(label)))
print(rows[:3])
n_spam = sum(l for _, l in rows)
print("spam:", n_spam, "ham:", len(rows) - n_spam)

# balance by undersampling ham
ham = [r for r in rows if r[1] == 0][:n_spam]
spam = [r for r in rows if r[1] == 1]
balanced = ham + spam
random.shuffle(balanced)
print("balanced:", len(balanced))

chars = sorted(set("".join(t for t, _ in balanced)))
PAD = 0
stoi = {c: i + 1 for i, c in enumerate(chars)}
V = len(stoi) + 1
print("vocab:", V)


class SpamDataset(Dataset):
    def __init__(self, data, max_length=None, pad_token_id=PAD):
        self.encoded = [[stoi[c] for c in t] for t, _ in data]
        self.labels = [l for _, l in data]
        self.max_length = max_length or max(len(e) for e in self.encoded)
        self.encoded = [
            e[: self.max_length] + [pad_token_id] * (self.max_length - len(e[: self.max_length]))
            for e in self.encoded
        ]

    def __getitem__(self, index):
        return torch.tensor(self.encoded[index], dtype=torch.long), torch.tensor(
            self.labels[index], dtype=torch.long
        )

    def __len__(self):
        return len(self.labels)


train_part = int(0.7 * len(balanced))
train_ds = SpamDataset(balanced[:train_part])
val_ds = SpamDataset(balanced[train_part:], max_length=train_ds.max_length)
print(train_ds.max_length, len(train_ds), len(val_ds))
g = torch.Generator().manual_seed(123)
train_loader = DataLoader(train_ds, batch_size=4, shuffle=True, drop_last=True, generator=g)
val_loader = DataLoader(val_ds, batch_size=4)
for input_batch, target_batch in train_loader:
    pass
print("Input batch dimensions:", input_batch.shape)
print("Label batch dimensions", target_batch.shape)
print(f"{len(train_loader)} training batches")
print(f"{len(val_loader)} validation batches")


class Backbone(nn.Module):
    def __init__(self, V, d=16, ctx=32):
        super().__init__()
        self.tok_emb = nn.Embedding(V, d, padding_idx=PAD)
        self.pos_emb = nn.Embedding(ctx, d)
        self.trf_blocks = nn.Sequential(
            nn.Sequential(nn.LayerNorm(d), nn.Linear(d, d), nn.GELU()),
            nn.Sequential(nn.LayerNorm(d), nn.Linear(d, d), nn.GELU()),
        )
        self.final_norm = nn.LayerNorm(d)
        self.out_head = nn.Linear(d, V)

    def forward(self, idx):
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(idx.shape[1]))
        for blk in self.trf_blocks:
            x = x + blk(x)
        return self.out_head(self.final_norm(x))


torch.manual_seed(123)
model = Backbone(V)
print(model.tok_emb.weight[PAD])
print(model.out_head)
for param in model.parameters():
    param.requires_grad = False
num_classes = 2
model.out_head = torch.nn.Linear(in_features=16, out_features=num_classes)
for param in model.trf_blocks[-1].parameters():
    param.requires_grad = True
for param in model.final_norm.parameters():
    param.requires_grad = True
print(model.out_head)
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print("trainable:", trainable)
print("frozen count:", sum(p.numel() for p in model.parameters() if not p.requires_grad))
print("trainable count:", sum(p.numel() for p in model.parameters() if p.requires_grad))

inputs = train_ds[0][0].unsqueeze(0)
print("Inputs:", inputs)
print("Inputs dimensions:", inputs.shape)
with torch.no_grad():
    outputs = model(inputs)
print("Outputs:\n", outputs[:, :3])
print("Outputs dimensions:", outputs.shape)
print("Last output token:", outputs[:, -1, :])
probas = torch.softmax(outputs[:, -1, :], dim=-1)
label = torch.argmax(probas)
print("Class label:", label.item())


def calc_accuracy_loader(data_loader, model, num_batches=None):
    model.eval()
    correct_predictions, num_examples = 0, 0
    num_batches = len(data_loader) if num_batches is None else min(num_batches, len(data_loader))
    for i, (input_batch, target_batch) in enumerate(data_loader):
        if i < num_batches:
            with torch.no_grad():
                logits = model(input_batch)[:, -1, :]
            predicted_labels = torch.argmax(logits, dim=-1)
            num_examples += predicted_labels.shape[0]
            correct_predictions += (predicted_labels == target_batch).sum().item()
        else:
            break
    return correct_predictions / num_examples


def calc_loss_batch(input_batch, target_batch, model):
    logits = model(input_batch)[:, -1, :]
    return torch.nn.functional.cross_entropy(logits, target_batch)


torch.manual_seed(123)
print(f"Training accuracy: {calc_accuracy_loader(train_loader, model) * 100:.2f}%")
print(f"Validation accuracy: {calc_accuracy_loader(val_loader, model) * 100:.2f}%")

optimizer = torch.optim.AdamW(
    filter(lambda p: p.requires_grad, model.parameters()), lr=5e-3, weight_decay=0.1
)
print(len(optimizer.param_groups[0]["params"]))
emb_before = model.tok_emb.weight.clone()
for epoch in range(5):
    model.train()
    total, examples_seen = 0.0, 0
    for input_batch, target_batch in train_loader:
        optimizer.zero_grad()
        loss = calc_loss_batch(input_batch, target_batch, model)
        loss.backward()
        optimizer.step()
        total += loss.item()
        examples_seen += input_batch.shape[0]
    print(
        f"Epoch {epoch + 1}: loss {total / len(train_loader):.4f}, seen {examples_seen}, "
        f"train acc {calc_accuracy_loader(train_loader, model):.3f}, val acc {calc_accuracy_loader(val_loader, model):.3f}"
    )
print("embedding unchanged:", torch.equal(emb_before, model.tok_emb.weight))
print("frozen grad is None:", model.tok_emb.weight.grad is None)
print(model.out_head.weight.grad.shape)


def classify_review(text, model, max_length, pad_token_id=PAD):
    model.eval()
    ids = [stoi.get(c, pad_token_id) for c in text][:max_length]
    ids += [pad_token_id] * (max_length - len(ids))
    input_tensor = torch.tensor(ids).unsqueeze(0)
    with torch.no_grad():
        logits = model(input_tensor)[:, -1, :]
    return "spam" if torch.argmax(logits, dim=-1).item() == 1 else "not spam"


print(classify_review("win free cash now", model, train_ds.max_length))
print(classify_review("see you at home", model, train_ds.max_length))
# the same surgery on a Sequential model: drop the old head, add a new one
seq = nn.Sequential(
    nn.Embedding(V, 8),
    nn.Flatten(),
    nn.Linear(8 * train_ds.max_length, 16),
    nn.ReLU(),
    nn.Linear(16, V),
)
print(len(seq), seq[-1])
del seq[-1]
seq.append(nn.Linear(16, num_classes))
seq.insert(3, nn.Dropout(0.1))
print(seq)
print(seq(train_ds[0][0].unsqueeze(0)).shape)
model.requires_grad_(False)
print(any(p.requires_grad for p in model.parameters()))
sd = model.state_dict()
print(len(sd), list(sd)[:4], sd["out_head.weight"].shape)
