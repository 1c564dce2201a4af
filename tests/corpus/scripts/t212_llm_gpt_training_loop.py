"""LLM from scratch, ch.5: cross-entropy over flattened logits, perplexity, a training loop with AdamW and evaluation."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

text = ("the quick brown fox jumps over the lazy dog. " * 6) + "a lazy fox sleeps. " * 3
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
V = len(chars)


class CharDataset(Dataset):
    def __init__(self, txt, max_length, stride):
        ids = [stoi[c] for c in txt]
        self.x, self.y = [], []
        for i in range(0, len(ids) - max_length, stride):
            self.x.append(torch.tensor(ids[i : i + max_length]))
            self.y.append(torch.tensor(ids[i + 1 : i + max_length + 1]))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


train_ratio = 0.85
split_idx = int(train_ratio * len(text))
train_data, val_data = text[:split_idx], text[split_idx:]
print("train chars:", len(train_data), "val chars:", len(val_data))
torch.manual_seed(123)
train_loader = DataLoader(CharDataset(train_data, 8, 8), batch_size=4, shuffle=True, drop_last=True)
val_loader = DataLoader(CharDataset(val_data, 8, 8), batch_size=4, shuffle=False, drop_last=False)
print("Train loader:")
for x, y in train_loader:
    print(x.shape, y.shape)
    break
print(len(train_loader), len(val_loader))


class TinyGPT(nn.Module):
    def __init__(self, V, d=16, ctx=8, heads=2):
        super().__init__()
        self.tok = nn.Embedding(V, d)
        self.pos = nn.Embedding(ctx, d)
        layer = nn.TransformerEncoderLayer(
            d, heads, dim_feedforward=32, dropout=0.0, batch_first=True, norm_first=True
        )
        self.blocks = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, V, bias=False)
        self.register_buffer("causal", torch.triu(torch.ones(ctx, ctx, dtype=torch.bool), 1))

    def forward(self, idx):
        t = idx.shape[1]
        h = self.tok(idx) + self.pos(torch.arange(t))
        h = self.blocks(h, mask=self.causal[:t, :t], is_causal=True)
        return self.head(self.ln(h))


torch.manual_seed(123)
model = TinyGPT(V)
print("trainable:", sum(p.numel() for p in model.parameters() if p.requires_grad))

inputs = torch.tensor([[stoi[c] for c in "the quic"], [stoi[c] for c in "lazy dog"]])
targets = torch.tensor([[stoi[c] for c in "he quick"], [stoi[c] for c in "azy dog."]])
with torch.no_grad():
    logits = model(inputs)
print(logits.shape)
probas = torch.softmax(logits, dim=-1)
token_ids = torch.argmax(probas, dim=-1, keepdim=True)
print("Token IDs:\n", token_ids.squeeze(-1))
text_idx = 0
target_probas_1 = probas[text_idx, [0, 1, 2], targets[text_idx, :3]]
print("Text 1:", target_probas_1)
log_probas = torch.log(torch.cat((target_probas_1, probas[1, [0, 1, 2], targets[1, :3]])))
print(log_probas)
avg_log_probas = torch.mean(log_probas)
print(avg_log_probas, avg_log_probas * -1)
logits_flat = logits.flatten(0, 1)
targets_flat = targets.flatten()
print("Flattened logits:", logits_flat.shape)
print("Flattened targets:", targets_flat.shape)
loss = torch.nn.functional.cross_entropy(logits_flat, targets_flat)
print(loss)
perplexity = torch.exp(loss)
print(perplexity)
gathered = -torch.log_softmax(logits_flat, -1).gather(1, targets_flat.unsqueeze(1)).mean()
print("gather equals CE:", torch.isclose(gathered, loss))
print(nn.CrossEntropyLoss(reduction="none")(logits_flat, targets_flat).shape)
print(nn.CrossEntropyLoss(ignore_index=stoi[" "])(logits_flat, targets_flat))
print(nn.CrossEntropyLoss(label_smoothing=0.1)(logits_flat, targets_flat))


def calc_loss_batch(input_batch, target_batch, model):
    logits = model(input_batch)
    return torch.nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.flatten())


def calc_loss_loader(data_loader, model, num_batches=None):
    total_loss = 0.0
    if len(data_loader) == 0:
        return float("nan")
    elif num_batches is None:
        num_batches = len(data_loader)
    else:
        num_batches = min(num_batches, len(data_loader))
    for i, (input_batch, target_batch) in enumerate(data_loader):
        if i < num_batches:
            loss = calc_loss_batch(input_batch, target_batch, model)
            total_loss += loss.item()
        else:
            break
    return total_loss / num_batches


with torch.no_grad():
    print("Training loss:", round(calc_loss_loader(train_loader, model), 4))
    print("Validation loss:", round(calc_loss_loader(val_loader, model), 4))


def evaluate_model(model, train_loader, val_loader, eval_iter):
    model.eval()
    with torch.no_grad():
        train_loss = calc_loss_loader(train_loader, model, num_batches=eval_iter)
        val_loss = calc_loss_loader(val_loader, model, num_batches=eval_iter)
    model.train()
    return train_loss, val_loss


def generate_and_print_sample(model, start_context):
    model.eval()
    idx = torch.tensor([[stoi[c] for c in start_context]])
    for _ in range(10):
        with torch.no_grad():
            logits = model(idx[:, -8:])[:, -1, :]
        idx = torch.cat([idx, logits.argmax(-1, keepdim=True)], dim=1)
    print(repr("".join(itos[i] for i in idx[0].tolist())))
    model.train()


def train_model_simple(
    model, train_loader, val_loader, optimizer, num_epochs, eval_freq, eval_iter, start_context
):
    train_losses, val_losses, track_tokens_seen = [], [], []
    tokens_seen, global_step = 0, -1
    for epoch in range(num_epochs):
        model.train()
        for input_batch, target_batch in train_loader:
            optimizer.zero_grad()
            loss = calc_loss_batch(input_batch, target_batch, model)
            loss.backward()
            optimizer.step()
            tokens_seen += input_batch.numel()
            global_step += 1
            if global_step % eval_freq == 0:
                train_loss, val_loss = evaluate_model(model, train_loader, val_loader, eval_iter)
                train_losses.append(train_loss)
                val_losses.append(val_loss)
                track_tokens_seen.append(tokens_seen)
                print(
                    f"Ep {epoch + 1} (Step {global_step:06d}): Train loss {train_loss:.3f}, Val loss {val_loss:.3f}"
                )
        generate_and_print_sample(model, "the ")
    return train_losses, val_losses, track_tokens_seen


torch.manual_seed(123)
model = TinyGPT(V)
optimizer = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.1)
print(optimizer)
train_losses, val_losses, tokens_seen = train_model_simple(
    model,
    train_loader,
    val_loader,
    optimizer,
    num_epochs=4,
    eval_freq=5,
    eval_iter=2,
    start_context="the ",
)
print(tokens_seen)
print([round(l, 3) for l in train_losses])

torch.save(
    {"model_state_dict": model.state_dict(), "optimizer_state_dict": optimizer.state_dict()},
    "model_and_optimizer.pth",
)
checkpoint = torch.load("model_and_optimizer.pth", weights_only=True)
model2 = TinyGPT(V)
print(model2.load_state_dict(checkpoint["model_state_dict"]))
optimizer2 = torch.optim.AdamW(model2.parameters(), lr=5e-4, weight_decay=0.1)
optimizer2.load_state_dict(checkpoint["optimizer_state_dict"])
print(optimizer2.param_groups[0]["lr"], len(optimizer2.state))
print(list(optimizer2.state_dict()["state"][0].keys()))
print(optimizer2.state_dict()["state"][0]["step"])
model2.eval()
with torch.no_grad():
    print(torch.equal(model2(inputs), model.eval()(inputs)))
