"""LLM from scratch, ch.2: a tiny character tokenizer, a sliding-window dataset, token + position embeddings."""

import re

import torch
from torch.utils.data import DataLoader, Dataset

raw_text = (
    "the verdict was in. jack gisburn had given up painting; "
    "he had married a rich widow and settled on the riviera. "
    "it was no great surprise to me to hear that, in the height of his glory, he had dropped his painting."
)
print("Total number of characters:", len(raw_text))
print(raw_text[:40])

preprocessed = re.split(r'([,.:;?_!"()\']|--|\s)', raw_text)
preprocessed = [item.strip() for item in preprocessed if item.strip()]
print(len(preprocessed), preprocessed[:12])

# a character vocabulary keeps everything self-contained
chars = sorted(set(raw_text))
chars.extend(["<|endoftext|>", "<|unk|>"])
vocab = {tok: i for i, tok in enumerate(chars)}
print("vocab size:", len(vocab))
for i, item in enumerate(vocab.items()):
    print(item)
    if i >= 5:
        break


class CharTokenizerV1:
    def __init__(self, vocab):
        self.str_to_int = vocab
        self.int_to_str = {i: s for s, i in vocab.items()}

    def encode(self, text):
        return [self.str_to_int.get(ch, self.str_to_int["<|unk|>"]) for ch in text]

    def decode(self, ids):
        return "".join(self.int_to_str[i] for i in ids)


tokenizer = CharTokenizerV1(vocab)
ids = tokenizer.encode("hello, world? #")
print(ids)
print(tokenizer.decode(ids))

enc_text = tokenizer.encode(raw_text)
print("encoded length:", len(enc_text))
context_size = 4
x = enc_text[:context_size]
y = enc_text[1 : context_size + 1]
print(f"x: {x}")
print(f"y:      {y}")
for i in range(1, context_size + 1):
    context = enc_text[:i]
    desired = enc_text[i]
    print(
        context,
        "---->",
        desired,
        "|",
        repr(tokenizer.decode(context)),
        "---->",
        repr(tokenizer.decode([desired])),
    )


class GPTDatasetV1(Dataset):
    def __init__(self, txt, tokenizer, max_length, stride):
        self.input_ids = []
        self.target_ids = []
        token_ids = tokenizer.encode(txt)
        for i in range(0, len(token_ids) - max_length, stride):
            input_chunk = token_ids[i : i + max_length]
            target_chunk = token_ids[i + 1 : i + max_length + 1]
            self.input_ids.append(torch.tensor(input_chunk))
            self.target_ids.append(torch.tensor(target_chunk))

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, idx):
        return self.input_ids[idx], self.target_ids[idx]


def create_dataloader_v1(
    txt, batch_size=4, max_length=8, stride=4, shuffle=True, drop_last=True, num_workers=0
):
    dataset = GPTDatasetV1(txt, tokenizer, max_length, stride)
    return DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        drop_last=drop_last,
        num_workers=num_workers,
    )


dataloader = create_dataloader_v1(raw_text, batch_size=1, max_length=4, stride=1, shuffle=False)
data_iter = iter(dataloader)
first_batch = next(data_iter)
print(first_batch)
second_batch = next(data_iter)
print(second_batch)
print("number of batches:", len(dataloader))

torch.manual_seed(123)
dataloader = create_dataloader_v1(raw_text, batch_size=8, max_length=4, stride=4, shuffle=True)
inputs, targets = next(iter(dataloader))
print("Inputs:\n", inputs)
print("\nTargets:\n", targets)
print(inputs.dtype, inputs.shape, targets.shape)
print(
    "batch size:",
    inputs.shape[0],
    "| per-sample shape:",
    inputs.shape[1:],
    "| as list:",
    list(inputs.shape),
)

# embeddings
input_ids = torch.tensor([2, 3, 5, 1])
vocab_size = 6
output_dim = 3
torch.manual_seed(123)
embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
print(embedding_layer)
print(embedding_layer.weight)
print(embedding_layer(torch.tensor([3])))
print(embedding_layer(input_ids))
onehot = torch.nn.functional.one_hot(input_ids, num_classes=vocab_size).float()
print(onehot)
print(torch.allclose(onehot @ embedding_layer.weight, embedding_layer(input_ids)))

output_dim = 16
vocab_size = len(vocab)
token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
max_length = 4
token_embeddings = token_embedding_layer(inputs)
print(token_embeddings.shape)
context_length = max_length
pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)
pos_embeddings = pos_embedding_layer(torch.arange(max_length))
print(pos_embeddings.shape)
input_embeddings = token_embeddings + pos_embeddings
print(input_embeddings.shape)
batch_dims, feat_dim = input_embeddings.shape[:-1], input_embeddings.shape[-1]
print("leading dims:", batch_dims, "embedding dim:", feat_dim)
print(input_embeddings[0, :, :4])
print("grad_fn:", input_embeddings.grad_fn)
print(
    "num params:",
    sum(p.numel() for p in token_embedding_layer.parameters()) + pos_embedding_layer.weight.numel(),
)

try:
    token_embedding_layer(torch.tensor([vocab_size]))
except IndexError as e:
    print("IndexError:", e)
