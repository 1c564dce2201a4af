"""CS224n PyTorch review style: tensors, autograd, nn.Module, and a word-window classifier for locations."""

import pprint
from functools import partial

import torch
import torch.nn as nn

# tensors
list_of_lists = [[1, 2, 3], [4, 5, 6]]
data = torch.tensor(list_of_lists)
print(list_of_lists, data)
data = torch.tensor([[0, 1], [2, 3], [4, 5]], dtype=torch.float32)
print(data)
print(torch.zeros(2, 5), torch.ones(3, 4))
rr = torch.arange(1, 10)
print(rr, rr + 2, rr * 2, rr.view(3, 3), rr.view(3, 3).T)
a = torch.tensor([[1, 2], [2, 3], [4, 5]])
b = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
print("A is", a, "B is", b, sep="\n")
print("The product is", a.matmul(b), "The other product is", a @ b, sep="\n")
v = torch.tensor([1, 2])
print(torch.matmul(a, v), a @ v)
print(torch.arange(2, 7).view(5, 1).reshape(1, 5).shape)
x = torch.zeros(3, 4, 5)
print(x.shape, x.size(), x.view(-1, 20).shape)
print(x.unsqueeze(1).shape, x.permute(2, 1, 0).shape, x.transpose(0, 1).shape)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(m.sum(dim=0), m.sum(dim=1), m.mean(dim=0), m.std(dim=0), m.max(dim=0))
x = torch.arange(1, 28).reshape(3, 3, 3)
print(x[1, 1, 1], x[:, 1, 1], x[0, 0], x[0, :, 0], x[[0, 2]], x[:, [0, 2]].shape)
i = torch.tensor([0, 0, 1, 1])
print(x[i].shape, x[i, :, 0])
print(torch.gather(m, 1, torch.tensor([[1], [0]])), m.masked_fill(m > 2, 0.0), m.clamp(max=2.5))
print(torch.einsum("ij,jk->ik", m, m), torch.bmm(m.unsqueeze(0), m.unsqueeze(0)).squeeze(0))
print(
    m.expand(2, 2, 2).shape,
    m.repeat(1, 2),
    m.repeat_interleave(2, dim=0),
    torch.tril(torch.ones(3, 3)),
)
print(
    torch.chunk(torch.arange(7), 3),
    torch.split(torch.arange(7), [2, 5]),
    torch.arange(6).unbind(0)[:2],
)
print(
    torch.zeros(3).scatter_(0, torch.tensor([0, 2]), torch.tensor([5.0, 7.0])),
    torch.zeros(3).index_add_(0, torch.tensor([0, 0]), torch.tensor([1.0, 2.0])),
)

# autograd
x = torch.tensor([2.0], requires_grad=True)
print(x.grad)
y = x * x * 3
y.backward()
pprint.pprint(x.grad)
z = x * x * 3
z.backward()
pprint.pprint(x.grad)
x.grad.zero_()
print(x.grad)

# nn.Module
input = torch.ones(2, 3, 4)
linear = nn.Linear(4, 2)
linear_output = linear(input)
print(linear_output.shape, list(linear.parameters())[0].shape)
print(nn.Sigmoid()(linear_output).shape)
block = nn.Sequential(nn.Linear(4, 2), nn.Sigmoid())
print(block(input).shape)


class MultilayerPerceptron(nn.Module):
    def __init__(self, input_size, hidden_size):
        super(MultilayerPerceptron, self).__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.model = nn.Sequential(
            nn.Linear(self.input_size, self.hidden_size),
            nn.ReLU(),
            nn.Linear(self.hidden_size, self.input_size),
            nn.Sigmoid(),
        )

    def forward(self, x):
        return self.model(x)


torch.manual_seed(0)
model = MultilayerPerceptron(5, 3)
print(model)
print(list(model.named_parameters())[0])
y = torch.tensor([[0.1, 0.2, 0.3, 0.4, 0.5], [0.6, 0.7, 0.8, 0.9, 1.0]])
adam = torch.optim.Adam(model.parameters(), lr=1e-1)
loss_function = nn.BCELoss()
y_pred = model(y)
print(y_pred)
print(loss_function(y_pred, y).item())
for epoch in range(10):
    adam.zero_grad()
    y_pred = model(y)
    loss = loss_function(y_pred, y)
    loss.backward()
    adam.step()
print(f"final loss {loss.item():.6f}")

# Word-window classification
corpus = [
    "We always come to Paris",
    "The professor is from Australia",
    "I live in Stanford",
    "He comes from Taiwan",
    "The capital of Turkey is Ankara",
]
locations = set(["australia", "ankara", "paris", "stanford", "taiwan", "turkey"])


def preprocess_sentence(sentence):
    return sentence.lower().split()


train_sentences = [preprocess_sentence(sent) for sent in corpus]
train_labels = [[1 if word in locations else 0 for word in sent] for sent in train_sentences]
print(train_sentences, train_labels)
vocabulary = set(w for s in train_sentences for w in s)
vocabulary.add("<unk>")
vocabulary.add("<pad>")
ix_to_word = sorted(list(vocabulary))
word_to_ix = {word: ind for ind, word in enumerate(ix_to_word)}
print(len(word_to_ix), word_to_ix["<pad>"], word_to_ix["<unk>"])


def pad_window(sentence, window_size, pad_token="<pad>"):
    window = [pad_token] * window_size
    return window + sentence + window


def convert_token_to_indices(sentence, word_to_ix):
    return [word_to_ix.get(token, word_to_ix["<unk>"]) for token in sentence]


example_padded_indices = [convert_token_to_indices(s, word_to_ix) for s in train_sentences]
print(pad_window(train_sentences[0], 2), example_padded_indices[0])
embedding_dim = 5
torch.manual_seed(0)
embeds = nn.Embedding(len(word_to_ix), embedding_dim)
print(list(embeds.parameters())[0].shape)
index = word_to_ix["paris"]
index_tensor = torch.tensor(index, dtype=torch.long)
print(
    embeds(index_tensor),
    embeds(torch.tensor(convert_token_to_indices(["paris", "is", "a", "city"], word_to_ix))).shape,
)


def custom_collate_fn(batch, window_size, word_to_ix):
    x, y = zip(*batch)
    x = [pad_window(s, window_size=window_size) for s in x]
    x = [convert_token_to_indices(s, word_to_ix) for s in x]
    pad_token_ix = word_to_ix["<pad>"]
    x = [torch.LongTensor(x_i) for x_i in x]
    x_padded = nn.utils.rnn.pad_sequence(x, batch_first=True, padding_value=pad_token_ix)
    lengths = [len(label) for label in y]
    lenghts = torch.LongTensor(lengths)
    y = [torch.LongTensor(y_i) for y_i in y]
    y_padded = nn.utils.rnn.pad_sequence(y, batch_first=True, padding_value=0)
    return x_padded, y_padded, lenghts


data = list(zip(train_sentences, train_labels))
batch_size = 2
shuffle = True
window_size = 2
collate_fn = partial(custom_collate_fn, window_size=window_size, word_to_ix=word_to_ix)
torch.manual_seed(1)
loader = torch.utils.data.DataLoader(
    data, batch_size=batch_size, shuffle=shuffle, collate_fn=collate_fn
)
counter = 0
for batched_x, batched_y, batched_lengths in loader:
    print(f"Iteration {counter}")
    print("Batched Input:")
    print(batched_x)
    print("Batched Labels:")
    print(batched_y)
    print("Batched Lengths:")
    print(batched_lengths)
    print("")
    counter += 1
print("Original Tensor: ")
print(batched_x)
print("")
chunk = batched_x.unfold(1, window_size * 2 + 1, 1)
print("Windows: ")
print(chunk, chunk.shape)


class WordWindowClassifier(nn.Module):
    def __init__(self, hyperparameters, vocab_size, pad_ix=0):
        super(WordWindowClassifier, self).__init__()
        self.window_size = hyperparameters["window_size"]
        self.embed_dim = hyperparameters["embed_dim"]
        self.hidden_dim = hyperparameters["hidden_dim"]
        self.freeze_embeddings = hyperparameters["freeze_embeddings"]
        self.embeds = nn.Embedding(vocab_size, self.embed_dim, padding_idx=pad_ix)
        if self.freeze_embeddings:
            self.embed_layer.weight.requires_grad = False
        full_window_size = 2 * window_size + 1
        self.hidden_layer = nn.Sequential(
            nn.Linear(full_window_size * self.embed_dim, self.hidden_dim), nn.Tanh()
        )
        self.output_layer = nn.Linear(self.hidden_dim, 1)
        self.probabilities = nn.Sigmoid()

    def forward(self, inputs):
        B, L = inputs.size()
        token_windows = inputs.unfold(1, 2 * self.window_size + 1, 1)
        _, adjusted_length, _ = token_windows.size()
        assert token_windows.size() == (B, adjusted_length, 2 * self.window_size + 1)
        embedded_windows = self.embeds(token_windows)
        embedded_windows = embedded_windows.view(B, adjusted_length, -1)
        layer_1 = self.hidden_layer(embedded_windows)
        output = self.output_layer(layer_1)
        output = self.probabilities(output)
        output = output.view(B, -1)
        return output


model_hyperparameters = {
    "batch_size": 4,
    "window_size": 2,
    "embed_dim": 25,
    "hidden_dim": 25,
    "freeze_embeddings": False,
}
vocab_size = len(word_to_ix)
torch.manual_seed(0)
model = WordWindowClassifier(model_hyperparameters, vocab_size)
learning_rate = 0.01
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def loss_function(batch_outputs, batch_labels, batch_lengths):
    bceloss = nn.BCELoss()
    loss = bceloss(batch_outputs, batch_labels.float())
    loss = loss / batch_lengths.sum().float()
    return loss


def train_epoch(loss_function, optimizer, model, loader):
    total_loss = 0
    for batch_inputs, batch_labels, batch_lengths in loader:
        optimizer.zero_grad()
        outputs = model.forward(batch_inputs)
        loss = loss_function(outputs, batch_labels, batch_lengths)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    return total_loss


def train(loss_function, optimizer, model, loader, num_epochs=10000):
    for epoch in range(num_epochs):
        epoch_loss = train_epoch(loss_function, optimizer, model, loader)
        if epoch % 100 == 0:
            print(epoch_loss)


num_epochs = 500
torch.manual_seed(2)
train(loss_function, optimizer, model, loader, num_epochs=num_epochs)
test_corpus = ["She comes from Paris"]
test_sentences = [s.lower().split() for s in test_corpus]
test_labels = [[0, 0, 0, 1]]
test_data = list(zip(test_sentences, test_labels))
test_loader = torch.utils.data.DataLoader(
    test_data, batch_size=1, shuffle=False, collate_fn=collate_fn
)
for test_instance, labels, _ in test_loader:
    outputs = model.forward(test_instance)
    print(labels)
    print(outputs)
    print((outputs > 0.5).long(), outputs.detach().round())
try:
    WordWindowClassifier({**model_hyperparameters, "freeze_embeddings": True}, vocab_size)
except AttributeError as e:
    print("AttributeError:", e)
