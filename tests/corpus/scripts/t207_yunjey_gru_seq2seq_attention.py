"""A GRU encoder-decoder with attention on a toy reversal task (seq2seq tutorial style), teacher forcing, masks."""

import random

import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS, PAD = 0, 1, 2
VOCAB = 8
MAX_LEN = 6
random.seed(0)
torch.manual_seed(0)


def make_pair():
    n = random.randint(2, 4)
    src = [random.randint(3, VOCAB - 1) for _ in range(n)]
    return src + [EOS], list(reversed(src)) + [EOS]


pairs = [make_pair() for _ in range(48)]
print(pairs[:3])


def batchify(batch):
    src = [torch.tensor(s) for s, _ in batch]
    tgt = [torch.tensor(t) for _, t in batch]
    src_len = torch.tensor([len(s) for s in src])
    src = nn.utils.rnn.pad_sequence(src, batch_first=True, padding_value=PAD)
    tgt = nn.utils.rnn.pad_sequence(tgt, batch_first=True, padding_value=PAD)
    return src, src_len, tgt


loader = torch.utils.data.DataLoader(pairs, batch_size=8, shuffle=True, collate_fn=batchify)
s, sl, t = next(iter(loader))
print(s, sl, t.shape)


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size, padding_idx=PAD)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(0.1)

    def forward(self, input, lengths):
        embedded = self.dropout(self.embedding(input))
        packed = nn.utils.rnn.pack_padded_sequence(
            embedded, lengths.cpu(), batch_first=True, enforce_sorted=False
        )
        output, hidden = self.gru(packed)
        output, _ = nn.utils.rnn.pad_packed_sequence(
            output, batch_first=True, total_length=input.size(1)
        )
        return output, hidden


class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys, mask):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        scores = scores.masked_fill(~mask.unsqueeze(1), float("-inf"))
        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)
        return context, weights


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)

    def forward(
        self, encoder_outputs, encoder_hidden, mask, target_tensor=None, teacher_forcing=True
    ):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long).fill_(SOS)
        decoder_hidden = encoder_hidden
        decoder_outputs, attentions = [], []
        steps = target_tensor.size(1) if target_tensor is not None else MAX_LEN
        for i in range(steps):
            decoder_output, decoder_hidden, attn_weights = self.forward_step(
                decoder_input, decoder_hidden, encoder_outputs, mask
            )
            decoder_outputs.append(decoder_output)
            attentions.append(attn_weights)
            if target_tensor is not None and teacher_forcing:
                decoder_input = target_tensor[:, i].unsqueeze(1)
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = torch.cat(decoder_outputs, dim=1)
        decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
        attentions = torch.cat(attentions, dim=1)
        return decoder_outputs, decoder_hidden, attentions

    def forward_step(self, input, hidden, encoder_outputs, mask):
        embedded = self.embedding(input)
        query = hidden.permute(1, 0, 2)
        context, attn_weights = self.attention(query, encoder_outputs, mask)
        input_gru = torch.cat((embedded, context), dim=2)
        output, hidden = self.gru(input_gru, hidden)
        output = self.out(output)
        return output, hidden, attn_weights


hidden_size = 16
encoder = EncoderRNN(VOCAB, hidden_size)
decoder = AttnDecoderRNN(hidden_size, VOCAB)
print(encoder)
print(decoder)
enc_opt = torch.optim.Adam(encoder.parameters(), lr=0.01)
dec_opt = torch.optim.Adam(decoder.parameters(), lr=0.01)
criterion = nn.NLLLoss(ignore_index=PAD)
sched = torch.optim.lr_scheduler.StepLR(dec_opt, step_size=10, gamma=0.5)

for epoch in range(1, 21):
    total = 0.0
    encoder.train()
    decoder.train()
    for src, src_len, tgt in loader:
        mask = src != PAD
        enc_opt.zero_grad()
        dec_opt.zero_grad()
        enc_out, enc_hidden = encoder(src, src_len)
        dec_out, _, _ = decoder(
            enc_out, enc_hidden, mask, tgt, teacher_forcing=random.random() < 0.5
        )
        loss = criterion(dec_out.view(-1, dec_out.size(-1)), tgt.view(-1))
        loss.backward()
        nn.utils.clip_grad_value_(encoder.parameters(), 1.0)
        nn.utils.clip_grad_norm_(decoder.parameters(), 1.0, norm_type=2.0)
        enc_opt.step()
        dec_opt.step()
        total += loss.item()
    sched.step()
    if epoch % 4 == 0:
        print(
            f"epoch {epoch:2d} | loss {total / len(loader):.4f} | lr {sched.get_last_lr()[0]:.5f}"
        )

encoder.eval()
decoder.eval()
with torch.inference_mode():
    src, src_len, tgt = batchify(pairs[:4])
    mask = src != PAD
    enc_out, enc_hidden = encoder(src, src_len)
    dec_out, _, attn = decoder(enc_out, enc_hidden, mask)
    pred = dec_out.argmax(-1)
    print(src)
    print(pred)
    print(attn.shape, attn[0, 0], attn.sum(-1)[0])
    n_tok = (tgt != PAD).sum()
    acc = ((pred[:, : tgt.size(1)] == tgt) & (tgt != PAD)).sum() / n_tok
    print(f"token accuracy {acc.item():.3f}", n_tok)
    print(enc_out[1, -1], (enc_out.abs().sum(-1) == 0).long())

# masked attention pieces on their own
scores = torch.tensor([[1.0, 2.0, 3.0]])
m = torch.tensor([[True, True, False]])
print(
    F.softmax(scores.masked_fill(~m, float("-inf")), dim=-1), torch.finfo(torch.float32).min < -1e38
)
print(F.softmax(torch.tensor([[float("-inf"), float("-inf")]]), dim=-1))
q = torch.randn(1, 2, 3, 4)
print(F.scaled_dot_product_attention(q, q, q, is_causal=True).shape)
mha = nn.MultiheadAttention(embed_dim=4, num_heads=2, batch_first=True)
o, w = mha(q[0], q[0], q[0])
print(o.shape, w.shape, w.sum(-1))
causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
print(causal, nn.Transformer.generate_square_subsequent_mask(3))
layer = nn.TransformerEncoderLayer(
    d_model=4, nhead=2, dim_feedforward=8, dropout=0.0, batch_first=True
)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
print(enc(q[0], mask=causal).shape, sum(p.numel() for p in enc.parameters()))
