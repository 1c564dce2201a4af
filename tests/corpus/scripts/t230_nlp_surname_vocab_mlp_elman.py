"""Rao & McMahan style: surname nationality classification -- Vocabulary, Vectorizer, Dataset with splits,
an MLP over collapsed one-hots, then an Elman RNN built from nn.RNNCell with column_gather."""

import random
from argparse import Namespace

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset

random.seed(1337)
torch.manual_seed(1337)

SYLL = {
    "Italian": ["ri", "ni", "to", "lo", "ca", "el", "li", "ro"],
    "Japanese": ["ka", "shi", "mo", "ta", "na", "yu", "ko", "to"],
    "Russian": ["ov", "ko", "vich", "in", "sky", "ev", "ra", "ba"],
    "Irish": ["mac", "o", "ly", "gan", "ney", "ell", "an", "ry"],
}


def make_surname(nat):
    n = random.randint(2, 4)
    s = "".join(random.choice(SYLL[nat]) for _ in range(n))
    return s.capitalize()


rows = []
for nat, count in [("Italian", 60), ("Japanese", 50), ("Russian", 80), ("Irish", 30)]:
    for _ in range(count):
        rows.append({"surname": make_surname(nat), "nationality": nat})
random.shuffle(rows)
for i, r in enumerate(rows):
    r["split"] = "train" if i < 150 else ("val" if i < 185 else "test")
print("first rows:", rows[:3])


class Vocabulary:
    def __init__(self, token_to_idx=None, add_unk=True, unk_token="<UNK>"):
        if token_to_idx is None:
            token_to_idx = {}
        self._token_to_idx = token_to_idx
        self._idx_to_token = {idx: token for token, idx in self._token_to_idx.items()}
        self._add_unk = add_unk
        self._unk_token = unk_token
        self.unk_index = -1
        if add_unk:
            self.unk_index = self.add_token(unk_token)

    def to_serializable(self):
        return {
            "token_to_idx": self._token_to_idx,
            "add_unk": self._add_unk,
            "unk_token": self._unk_token,
        }

    @classmethod
    def from_serializable(cls, contents):
        return cls(**contents)

    def add_token(self, token):
        if token in self._token_to_idx:
            index = self._token_to_idx[token]
        else:
            index = len(self._token_to_idx)
            self._token_to_idx[token] = index
            self._idx_to_token[index] = token
        return index

    def lookup_token(self, token):
        if self._add_unk:
            return self._token_to_idx.get(token, self.unk_index)
        return self._token_to_idx[token]

    def lookup_index(self, index):
        if index not in self._idx_to_token:
            raise KeyError(f"the index ({index}) is not in the Vocabulary")
        return self._idx_to_token[index]

    def __str__(self):
        return f"<Vocabulary(size={len(self)})>"

    def __len__(self):
        return len(self._token_to_idx)


class SequenceVocabulary(Vocabulary):
    def __init__(
        self,
        token_to_idx=None,
        unk_token="<UNK>",
        mask_token="<MASK>",
        begin_seq_token="<BEGIN>",
        end_seq_token="<END>",
    ):
        super().__init__(token_to_idx, add_unk=False)
        self.mask_index = self.add_token(mask_token)
        self._add_unk = True
        self.unk_index = self.add_token(unk_token)
        self.begin_seq_index = self.add_token(begin_seq_token)
        self.end_seq_index = self.add_token(end_seq_token)


class SurnameVectorizer:
    def __init__(self, surname_vocab, nationality_vocab, char_vocab):
        self.surname_vocab, self.nationality_vocab, self.char_vocab = (
            surname_vocab,
            nationality_vocab,
            char_vocab,
        )

    def vectorize(self, surname):
        one_hot = torch.zeros(len(self.surname_vocab), dtype=torch.float32)
        for token in surname:
            one_hot[self.surname_vocab.lookup_token(token)] = 1
        return one_hot

    def vectorize_seq(self, surname, vector_length=-1):
        indices = [self.char_vocab.begin_seq_index]
        indices.extend(self.char_vocab.lookup_token(t) for t in surname)
        indices.append(self.char_vocab.end_seq_index)
        if vector_length < 0:
            vector_length = len(indices)
        out = torch.full((vector_length,), self.char_vocab.mask_index, dtype=torch.int64)
        out[: len(indices)] = torch.tensor(indices)
        return out, len(indices)

    @classmethod
    def from_rows(cls, rows):
        surname_vocab = Vocabulary(unk_token="@")
        nationality_vocab = Vocabulary(add_unk=False)
        char_vocab = SequenceVocabulary()
        for row in rows:
            for letter in row["surname"]:
                surname_vocab.add_token(letter)
                char_vocab.add_token(letter)
            nationality_vocab.add_token(row["nationality"])
        return cls(surname_vocab, nationality_vocab, char_vocab)


class SurnameDataset(Dataset):
    def __init__(self, rows, vectorizer):
        self.rows, self._vectorizer = rows, vectorizer
        self.max_seq_length = max(len(r["surname"]) for r in rows) + 2
        self._lookup = {s: [r for r in rows if r["split"] == s] for s in ("train", "val", "test")}
        self.set_split("train")
        counts = {}
        for r in rows:
            counts[r["nationality"]] = counts.get(r["nationality"], 0) + 1
        freqs = [
            counts[vectorizer.nationality_vocab.lookup_index(i)]
            for i in range(len(vectorizer.nationality_vocab))
        ]
        self.class_weights = 1.0 / torch.tensor(freqs, dtype=torch.float32)

    def set_split(self, split="train"):
        self._target_split = split
        self._target_rows = self._lookup[split]

    def __len__(self):
        return len(self._target_rows)

    def __getitem__(self, index):
        row = self._target_rows[index]
        seq, length = self._vectorizer.vectorize_seq(row["surname"], self.max_seq_length)
        return {
            "x_surname": self._vectorizer.vectorize(row["surname"]),
            "x_seq": seq,
            "x_length": length,
            "y_nationality": self._vectorizer.nationality_vocab.lookup_token(row["nationality"]),
        }

    def get_num_batches(self, batch_size):
        return len(self) // batch_size


def generate_batches(dataset, batch_size, shuffle=True, drop_last=True, device="cpu"):
    dataloader = DataLoader(
        dataset=dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last
    )
    for data_dict in dataloader:
        yield {name: tensor.to(device) for name, tensor in data_dict.items()}


vectorizer = SurnameVectorizer.from_rows([r for r in rows if r["split"] == "train"])
dataset = SurnameDataset(rows, vectorizer)
print(vectorizer.surname_vocab, vectorizer.nationality_vocab, vectorizer.char_vocab)
print(
    "nationalities:",
    [
        vectorizer.nationality_vocab.lookup_index(i)
        for i in range(len(vectorizer.nationality_vocab))
    ],
)
print(
    "unk index:",
    vectorizer.surname_vocab.unk_index,
    "lookup 'Z':",
    vectorizer.surname_vocab.lookup_token("Z"),
)
try:
    vectorizer.nationality_vocab.lookup_index(99)
except KeyError as e:
    print("KeyError:", e)
restored = Vocabulary.from_serializable(vectorizer.nationality_vocab.to_serializable())
print("restored:", restored, restored.lookup_token("Irish"))
print("class weights:", dataset.class_weights)
item = dataset[0]
print("item:", {k: (v.shape if torch.is_tensor(v) else v) for k, v in item.items()})
print("x_seq:", item["x_seq"], "length:", item["x_length"])
print("splits:", {s: len(dataset._lookup[s]) for s in ("train", "val", "test")})


class SurnameClassifier(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim):
        super().__init__()
        self.fc1 = nn.Linear(input_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, output_dim)

    def forward(self, x_in, apply_softmax=False):
        intermediate_vector = F.relu(self.fc1(x_in))
        prediction_vector = self.fc2(F.dropout(intermediate_vector, p=0.3, training=self.training))
        if apply_softmax:
            prediction_vector = F.softmax(prediction_vector, dim=1)
        return prediction_vector


def compute_accuracy(y_pred, y_target):
    _, y_pred_indices = y_pred.max(dim=1)
    n_correct = torch.eq(y_pred_indices, y_target).sum().item()
    return n_correct / len(y_pred_indices) * 100


def make_train_state(args):
    return {
        "stop_early": False,
        "early_stopping_step": 0,
        "early_stopping_best_val": 1e8,
        "learning_rate": args.learning_rate,
        "epoch_index": 0,
        "train_loss": [],
        "train_acc": [],
        "val_loss": [],
        "val_acc": [],
    }


def update_train_state(args, model, train_state):
    if train_state["epoch_index"] == 0:
        train_state["best_state"] = {k: v.clone() for k, v in model.state_dict().items()}
    elif train_state["epoch_index"] >= 1:
        loss_t = train_state["val_loss"][-1]
        if loss_t >= train_state["early_stopping_best_val"]:
            train_state["early_stopping_step"] += 1
        else:
            train_state["best_state"] = {k: v.clone() for k, v in model.state_dict().items()}
            train_state["early_stopping_step"] = 0
        train_state["early_stopping_best_val"] = min(loss_t, train_state["early_stopping_best_val"])
        train_state["stop_early"] = (
            train_state["early_stopping_step"] >= args.early_stopping_criteria
        )
    return train_state


def run(model, args, key="x_surname", **fw):
    loss_func = nn.CrossEntropyLoss(weight=dataset.class_weights)
    optimizer = optim.Adam(model.parameters(), lr=args.learning_rate)
    scheduler = optim.lr_scheduler.ReduceLROnPlateau(
        optimizer=optimizer, mode="min", factor=0.5, patience=1
    )
    train_state = make_train_state(args)
    for epoch_index in range(args.num_epochs):
        train_state["epoch_index"] = epoch_index
        dataset.set_split("train")
        running_loss, running_acc = 0.0, 0.0
        model.train()
        for batch_index, batch_dict in enumerate(generate_batches(dataset, args.batch_size)):
            optimizer.zero_grad()
            y_pred = model(batch_dict[key], **{k: batch_dict[v] for k, v in fw.items()})
            loss = loss_func(y_pred, batch_dict["y_nationality"])
            running_loss += (loss.item() - running_loss) / (batch_index + 1)
            loss.backward()
            optimizer.step()
            running_acc += (compute_accuracy(y_pred, batch_dict["y_nationality"]) - running_acc) / (
                batch_index + 1
            )
        train_state["train_loss"].append(running_loss)
        train_state["train_acc"].append(running_acc)
        dataset.set_split("val")
        running_loss, running_acc = 0.0, 0.0
        model.eval()
        for batch_index, batch_dict in enumerate(
            generate_batches(dataset, args.batch_size, shuffle=False)
        ):
            y_pred = model(batch_dict[key], **{k: batch_dict[v] for k, v in fw.items()})
            loss = loss_func(y_pred, batch_dict["y_nationality"])
            running_loss += (loss.to("cpu").item() - running_loss) / (batch_index + 1)
            running_acc += (compute_accuracy(y_pred, batch_dict["y_nationality"]) - running_acc) / (
                batch_index + 1
            )
        train_state["val_loss"].append(running_loss)
        train_state["val_acc"].append(running_acc)
        train_state = update_train_state(args, model, train_state)
        scheduler.step(train_state["val_loss"][-1])
        print(
            f"epoch {epoch_index}: train loss {train_state['train_loss'][-1]:.4f} acc {train_state['train_acc'][-1]:.2f} | "
            f"val loss {train_state['val_loss'][-1]:.4f} acc {train_state['val_acc'][-1]:.2f} | lr {optimizer.param_groups[0]['lr']}"
        )
        if train_state["stop_early"]:
            print("early stop")
            break
    return train_state


args = Namespace(
    hidden_dim=32, learning_rate=0.01, batch_size=16, num_epochs=6, early_stopping_criteria=2
)
classifier = SurnameClassifier(
    len(vectorizer.surname_vocab), args.hidden_dim, len(vectorizer.nationality_vocab)
)
print(classifier)
ts = run(classifier, args)
classifier.load_state_dict(ts["best_state"])
classifier.eval()


def predict_topk_nationality(surname, classifier, vectorizer, k=3):
    vectorized_surname = vectorizer.vectorize(surname).view(1, -1)
    prediction_vector = classifier(vectorized_surname, apply_softmax=True)
    probability_values, indices = torch.topk(prediction_vector, k=k)
    probability_values = probability_values.detach().numpy()[0]
    indices = indices.detach().numpy()[0]
    return [
        {
            "nationality": vectorizer.nationality_vocab.lookup_index(int(i)),
            "probability": round(float(p), 4),
        }
        for p, i in zip(probability_values, indices)
    ]


for name in ["Rossini", "Takamoto", "Ivanovich", "Macnamara"]:
    print(name, predict_topk_nationality(name, classifier, vectorizer))


# --- Elman RNN from an RNNCell
def column_gather(y_out, x_lengths):
    x_lengths = x_lengths.long().detach().cpu().numpy() - 1
    out = []
    for batch_index, column_index in enumerate(x_lengths):
        out.append(y_out[batch_index, column_index])
    return torch.stack(out)


class ElmanRNN(nn.Module):
    def __init__(self, input_size, hidden_size, batch_first=False):
        super().__init__()
        self.rnn_cell = nn.RNNCell(input_size, hidden_size)
        self.batch_first = batch_first
        self.hidden_size = hidden_size

    def _initial_hidden(self, batch_size):
        return torch.zeros((batch_size, self.hidden_size))

    def forward(self, x_in, initial_hidden=None):
        if self.batch_first:
            batch_size, seq_size, feat_size = x_in.size()
            x_in = x_in.permute(1, 0, 2)
        else:
            seq_size, batch_size, feat_size = x_in.size()
        hiddens = []
        if initial_hidden is None:
            initial_hidden = self._initial_hidden(batch_size).to(x_in.device)
        hidden_t = initial_hidden
        for t in range(seq_size):
            hidden_t = self.rnn_cell(x_in[t], hidden_t)
            hiddens.append(hidden_t)
        hiddens = torch.stack(hiddens)
        if self.batch_first:
            hiddens = hiddens.permute(1, 0, 2)
        return hiddens


class SurnameRNNClassifier(nn.Module):
    def __init__(
        self,
        embedding_size,
        num_embeddings,
        num_classes,
        rnn_hidden_size,
        batch_first=True,
        padding_idx=0,
    ):
        super().__init__()
        self.emb = nn.Embedding(
            num_embeddings=num_embeddings, embedding_dim=embedding_size, padding_idx=padding_idx
        )
        self.rnn = ElmanRNN(
            input_size=embedding_size, hidden_size=rnn_hidden_size, batch_first=batch_first
        )
        self.fc1 = nn.Linear(in_features=rnn_hidden_size, out_features=rnn_hidden_size)
        self.fc2 = nn.Linear(in_features=rnn_hidden_size, out_features=num_classes)

    def forward(self, x_in, x_lengths=None, apply_softmax=False):
        x_embedded = self.emb(x_in)
        y_out = self.rnn(x_embedded)
        if x_lengths is not None:
            y_out = column_gather(y_out, x_lengths)
        else:
            y_out = y_out[:, -1, :]
        y_out = F.relu(self.fc1(F.dropout(y_out, 0.5, training=self.training)))
        y_out = self.fc2(F.dropout(y_out, 0.5, training=self.training))
        if apply_softmax:
            y_out = F.softmax(y_out, dim=1)
        return y_out


torch.manual_seed(7)
rnn_clf = SurnameRNNClassifier(
    12,
    len(vectorizer.char_vocab),
    len(vectorizer.nationality_vocab),
    24,
    padding_idx=vectorizer.char_vocab.mask_index,
)
print(rnn_clf)
print("padding row of embedding:", rnn_clf.emb.weight[0])
b = next(generate_batches(dataset, 4, shuffle=False))
print("x_seq batch:", b["x_seq"].shape, "lengths:", b["x_length"])
print("rnn out:", rnn_clf.rnn(rnn_clf.emb(b["x_seq"])).shape)
print("gathered:", column_gather(rnn_clf.rnn(rnn_clf.emb(b["x_seq"])), b["x_length"]).shape)
args2 = Namespace(learning_rate=5e-3, batch_size=16, num_epochs=4, early_stopping_criteria=3)
run(rnn_clf, args2, key="x_seq", x_lengths="x_length")
print("padding row after training still zero:", rnn_clf.emb.weight[0].abs().sum().item())
print("padding grad:", rnn_clf.emb.weight.grad[0].abs().sum().item())
