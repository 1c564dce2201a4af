"""Generating names with a character-level RNN (conditioned on a category)."""

import math
import random
import string
import time
import unicodedata

import torch
import torch.nn as nn

torch.manual_seed(1)
random.seed(1)

all_letters = string.ascii_letters + " .,;'-"
n_letters = len(all_letters) + 1  # Plus EOS marker
print("n_letters", n_letters)


def unicodeToAscii(s):
    return "".join(
        c
        for c in unicodedata.normalize("NFD", s)
        if unicodedata.category(c) != "Mn" and c in all_letters
    )


print(unicodeToAscii("Ślusàrski"), unicodeToAscii("Müller"), unicodeToAscii("O'Néill"))

category_lines = {
    "German": [
        "Muller",
        "Schmidt",
        "Schneider",
        "Fischer",
        "Weber",
        "Becker",
        "Wagner",
        "Hoffmann",
    ],
    "Italian": ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci"],
    "Japanese": [
        "Sato",
        "Suzuki",
        "Takahashi",
        "Tanaka",
        "Watanabe",
        "Ito",
        "Yamamoto",
        "Nakamura",
    ],
}
all_categories = list(category_lines.keys())
n_categories = len(all_categories)
print("# categories:", n_categories, all_categories)


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(n_categories + input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(n_categories + input_size + hidden_size, output_size)
        self.o2o = nn.Linear(hidden_size + output_size, output_size)
        self.dropout = nn.Dropout(0.1)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, category, input, hidden):
        input_combined = torch.cat((category, input, hidden), 1)
        hidden = self.i2h(input_combined)
        output = self.i2o(input_combined)
        output_combined = torch.cat((hidden, output), 1)
        output = self.o2o(output_combined)
        output = self.dropout(output)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


def randomChoice(l):
    return l[random.randint(0, len(l) - 1)]


def randomTrainingPair():
    category = randomChoice(all_categories)
    line = randomChoice(category_lines[category])
    return category, line


def categoryTensor(category):
    li = all_categories.index(category)
    tensor = torch.zeros(1, n_categories)
    tensor[0][li] = 1
    return tensor


def inputTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li in range(len(line)):
        letter = line[li]
        tensor[li][0][all_letters.find(letter)] = 1
    return tensor


def targetTensor(line):
    letter_indexes = [all_letters.find(line[li]) for li in range(1, len(line))]
    letter_indexes.append(n_letters - 1)  # EOS
    return torch.LongTensor(letter_indexes)


t = inputTensor("Ito")
print("inputTensor('Ito')", t.shape, t.nonzero())
print("targetTensor('Ito')", targetTensor("Ito"))
print(categoryTensor("Italian"))


def randomTrainingExample():
    category, line = randomTrainingPair()
    return categoryTensor(category), inputTensor(line), targetTensor(line)


criterion = nn.NLLLoss()
learning_rate = 0.005
rnn = RNN(n_letters, 32, n_letters)
print(rnn)


def train(category_tensor, input_line_tensor, target_line_tensor):
    target_line_tensor.unsqueeze_(-1)
    hidden = rnn.initHidden()
    rnn.zero_grad()
    loss = torch.Tensor([0])
    for i in range(input_line_tensor.size(0)):
        output, hidden = rnn(category_tensor, input_line_tensor[i], hidden)
        l = criterion(output, target_line_tensor[i])
        loss += l
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item() / input_line_tensor.size(0)


def timeSince(since):
    now = time.time()
    s = now - since
    m = math.floor(s / 60)
    s -= m * 60
    return "%dm %ds" % (m, s)


n_iters = 600
print_every = 100
total_loss = 0
all_losses = []
start = time.time()
for iter in range(1, n_iters + 1):
    output, loss = train(*randomTrainingExample())
    total_loss += loss
    if iter % print_every == 0:
        print("(%d %d%%) %.4f" % (iter, iter / n_iters * 100, loss))
        all_losses.append(total_loss / print_every)
        total_loss = 0
print("average losses", [round(l, 4) for l in all_losses])
print("last output shape", output.shape, output.grad_fn)

max_length = 10


def sample(category, start_letter="A"):
    with torch.no_grad():
        category_tensor = categoryTensor(category)
        input = inputTensor(start_letter)
        hidden = rnn.initHidden()
        output_name = start_letter
        for i in range(max_length):
            output, hidden = rnn(category_tensor, input[0], hidden)
            topv, topi = output.topk(1)
            topi = topi[0][0]
            if topi == n_letters - 1:
                break
            else:
                letter = all_letters[topi]
                output_name += letter
            input = inputTensor(letter)
        return output_name


def samples(category, start_letters="ABC"):
    for start_letter in start_letters:
        print(category, start_letter, "->", sample(category, start_letter))


rnn.eval()
samples("German", "GSW")
samples("Italian", "RBC")
samples("Japanese", "STY")


# stochastic sampling with temperature via multinomial
def sample_stochastic(category, start_letter, temperature=0.8):
    with torch.no_grad():
        c = categoryTensor(category)
        inp = inputTensor(start_letter)
        hidden = rnn.initHidden()
        name = start_letter
        for i in range(max_length):
            output, hidden = rnn(c, inp[0], hidden)
            probs = torch.softmax(output.squeeze(0) / temperature, dim=0)
            idx = torch.multinomial(probs, 1).item()
            if idx == n_letters - 1:
                break
            name += all_letters[idx]
            inp = inputTensor(all_letters[idx])
        return name


torch.manual_seed(7)
print([sample_stochastic("Japanese", "T") for _ in range(4)])

# the same with a built-in GRU over a packed one-hot sequence
gru = nn.GRU(n_letters, 16, batch_first=False)
seq = inputTensor("Tanaka")
out, h = gru(seq)
print("GRU out", out.shape, "h", h.shape)
print(h.squeeze()[:6])
print(out[-1, 0, :6])
