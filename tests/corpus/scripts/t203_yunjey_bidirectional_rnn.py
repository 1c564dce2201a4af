"""pytorch-tutorial bidirectional recurrent neural network style, plus a small sequence-sum regression."""

import torch
import torch.nn as nn
import torch.nn.functional as F

sequence_length = 6
input_size = 6
hidden_size = 10
num_layers = 2
num_classes = 3
batch_size = 8
num_epochs = 3
learning_rate = 0.003
torch.manual_seed(3)
labels_all = torch.randint(0, num_classes, (96,))
images_all = 0.3 * torch.randn(96, 1, 6, 6)
for k in range(num_classes):
    images_all[labels_all == k, 0, k * 2 : k * 2 + 2, :] += 1.0
train_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(images_all[:64], labels_all[:64]),
    batch_size=batch_size,
    shuffle=True,
)
test_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(images_all[64:], labels_all[64:]), batch_size=batch_size
)


class BiRNN(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(BiRNN, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(
            input_size, hidden_size, num_layers, batch_first=True, bidirectional=True
        )
        self.fc = nn.Linear(hidden_size * 2, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers * 2, x.size(0), self.hidden_size)
        c0 = torch.zeros(self.num_layers * 2, x.size(0), self.hidden_size)
        out, _ = self.lstm(x, (h0, c0))
        out = self.fc(out[:, -1, :])
        return out


model = BiRNN(input_size, hidden_size, num_layers, num_classes)
print(model)
print([n for n, _ in model.named_parameters()])
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        images = images.reshape(-1, sequence_length, input_size)
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 4 == 0:
            print(
                "Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}".format(
                    epoch + 1, num_epochs, i + 1, total_step, loss.item()
                )
            )

with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        images = images.reshape(-1, sequence_length, input_size)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
    print("Test Accuracy of the model on the test images: {} %".format(100 * correct / total))

# How the two directions are laid out
torch.manual_seed(0)
bi = nn.GRU(input_size=2, hidden_size=3, batch_first=True, bidirectional=True)
x = torch.randn(2, 4, 2)
out, h_n = bi(x)
print(out.shape, h_n.shape)
fwd, bwd = out[..., :3], out[..., 3:]
print(torch.allclose(fwd[:, -1], h_n[0]), torch.allclose(bwd[:, 0], h_n[1]))
out_view = out.view(2, 4, 2, 3)
print(out_view[:, :, 1].shape, torch.equal(out_view[:, :, 1], bwd))
h_cat = torch.cat((h_n[-2, :, :], h_n[-1, :, :]), dim=1)
print(h_cat.shape, h_cat)


def run_gru(rnn, inputs, hidden=None):
    if hidden == None:
        hidden = torch.zeros(2, inputs.size(0), 3)
    return rnn(inputs, hidden)


o_a, h_a = run_gru(bi, x)
o_b, h_b = run_gru(bi, x, h_a)
print(torch.allclose(o_a, out), h_b.shape, (h_b - h_a).abs().max() > 0)
rev_out, _ = bi(torch.flip(x, dims=[1]))
print(rev_out.shape)
print([n for n in bi.state_dict()])
print(bi.weight_ih_l0_reverse.shape, bi.bias_hh_l0_reverse[:3])

# sum-of-sequence regression with a bidirectional RNN + packed sequences
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(5)
seqs = [torch.randn(int(L), 1) for L in torch.randint(2, 7, (10,))]
lengths = torch.tensor([len(s) for s in seqs])
print(lengths)
padded = pad_sequence(seqs, batch_first=True)
print(padded.shape, padded[0, :, 0])
targets = torch.stack([s.sum() for s in seqs])
net = nn.RNN(1, 8, batch_first=True, bidirectional=True)
head = nn.Linear(16, 1)
opt = torch.optim.Adam(list(net.parameters()) + list(head.parameters()), lr=0.02)
for step in range(40):
    packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
    _, h = net(packed)
    pred = head(torch.cat([h[0], h[1]], dim=1)).squeeze(1)
    loss = F.mse_loss(pred, targets)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
    opt.step()
    if step % 10 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(type(packed).__name__, packed.batch_sizes, packed.data.shape, packed.sorted_indices)
out_p, h = net(packed)
unpacked, lens = pad_packed_sequence(out_p, batch_first=True)
print(unpacked.shape, lens, (unpacked[lengths < 6][:, -1] == 0).all())
