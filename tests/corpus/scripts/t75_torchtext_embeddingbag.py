"""Text classification the way PyTorch's text tutorial teaches it: token ids of different
lengths packed into one tensor with offsets, nn.EmbeddingBag averaging each text's
embeddings, a linear classifier, SGD with gradient clipping and StepLR."""

import torch
from torch import nn
from torch.utils.data import DataLoader

WORDS = "<unk> the match goal team scored market stocks fell shares rose election vote party"
vocab = {w: i for i, w in enumerate(WORDS.split())}
data = [
    (0, "the team scored a goal"),
    (1, "stocks fell as the market shares rose"),
    (2, "the party won the election vote"),
    (0, "goal goal match team"),
    (1, "market shares stocks"),
    (2, "vote party election"),
    (0, "the match"),
    (1, "shares fell"),
    (2, "the vote"),
]


def text_pipeline(text):
    return [vocab.get(w, 0) for w in text.split()]


def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for label, text in batch:
        label_list.append(label)
        processed = torch.tensor(text_pipeline(text), dtype=torch.int64)
        text_list.append(processed)
        offsets.append(processed.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    return label_list, torch.cat(text_list), offsets


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


torch.manual_seed(0)
labels, text, offsets = collate_batch(data[:3])
print(labels, text, offsets)
model = TextClassificationModel(len(vocab), 8, 3)
print(model)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.5)
loader = DataLoader(data, batch_size=3, shuffle=True, collate_fn=collate_batch)
for epoch in range(1, 5):
    model.train()
    total_acc, total_count = 0, 0
    for label, text, offsets in loader:
        optimizer.zero_grad()
        predicted_label = model(text, offsets)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
    scheduler.step()
    lr = scheduler.get_last_lr()[0]
    print(f"| epoch {epoch:3d} | accuracy {total_acc / total_count:8.3f} | lr {lr:.4f}")
with torch.no_grad():
    text = torch.tensor(text_pipeline("the team scored"))
    print("prediction:", model(text, torch.tensor([0])).argmax(1).item())
bag = nn.EmbeddingBag(5, 2, mode="max")
print(bag(torch.tensor([[1, 2], [3, 4]])))
