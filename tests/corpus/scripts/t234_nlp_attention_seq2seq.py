"""Rao & McMahan style NMT: a bi-GRU encoder, a GRUCell decoder with attention over encoder states, teacher forcing,
masked sequence loss, greedy and beam decoding -- on a toy 'reverse and shift' translation task."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.manual_seed(99)
PAD, BOS, EOS = 0, 1, 2
V = 12


def make_pairs(n):
    src, tgt = [], []
    for _ in range(n):
        L = int(torch.randint(2, 6, (1,)))
        s = torch.randint(3, V - 1, (L,))
        src.append(s)
        tgt.append(torch.flip(s, [0]) + 1)
    return src, tgt


def to_batch(src, tgt):
    order = sorted(range(len(src)), key=lambda i: -len(src[i]))
    src = [src[i] for i in order]
    tgt = [tgt[i] for i in order]
    sl = torch.tensor([len(s) for s in src])
    S = int(sl.max())
    T = max(len(t) for t in tgt) + 2
    x = torch.full((len(src), S), PAD, dtype=torch.long)
    y = torch.full((len(src), T), PAD, dtype=torch.long)
    for i, (s, t) in enumerate(zip(src, tgt)):
        x[i, : len(s)] = s
        y[i, : len(t) + 2] = torch.cat([torch.tensor([BOS]), t, torch.tensor([EOS])])
    return x, sl, y


src, tgt = make_pairs(8)
x, sl, y = to_batch(src, tgt)
print("x:\n", x, "\nlengths:", sl, "\ny:\n", y)


class NMTEncoder(nn.Module):
    def __init__(self, num_embeddings, embedding_size, rnn_hidden_size):
        super().__init__()
        self.source_embedding = nn.Embedding(num_embeddings, embedding_size, padding_idx=0)
        self.birnn = nn.GRU(embedding_size, rnn_hidden_size, bidirectional=True, batch_first=True)

    def forward(self, x_source, x_lengths):
        x_embedded = self.source_embedding(x_source)
        x_packed = pack_padded_sequence(
            x_embedded, x_lengths.detach().cpu().numpy(), batch_first=True
        )
        x_birnn_out, x_birnn_h = self.birnn(x_packed)
        x_birnn_h = x_birnn_h.permute(1, 0, 2)
        x_birnn_h = x_birnn_h.contiguous().view(x_birnn_h.size(0), -1)
        x_unpacked, _ = pad_packed_sequence(x_birnn_out, batch_first=True)
        return x_unpacked, x_birnn_h


def verbose_attention(encoder_state_vectors, query_vector):
    batch_size, num_vectors, vector_size = encoder_state_vectors.size()
    vector_scores = torch.sum(
        encoder_state_vectors * query_vector.view(batch_size, 1, vector_size), dim=2
    )
    vector_probabilities = F.softmax(vector_scores, dim=1)
    weighted_vectors = encoder_state_vectors * vector_probabilities.view(batch_size, num_vectors, 1)
    context_vectors = torch.sum(weighted_vectors, dim=1)
    return context_vectors, vector_probabilities, vector_scores


def terse_attention(encoder_state_vectors, query_vector, mask=None):
    vector_scores = torch.matmul(encoder_state_vectors, query_vector.unsqueeze(dim=2)).squeeze(-1)
    if mask is not None:
        vector_scores = vector_scores.masked_fill(~mask, float("-inf"))
    vector_probabilities = F.softmax(vector_scores, dim=-1)
    context_vectors = torch.matmul(
        encoder_state_vectors.transpose(-2, -1), vector_probabilities.unsqueeze(dim=2)
    ).squeeze(-1)
    return context_vectors, vector_probabilities


class NMTDecoder(nn.Module):
    def __init__(self, num_embeddings, embedding_size, rnn_hidden_size, bos_index):
        super().__init__()
        self._rnn_hidden_size = rnn_hidden_size
        self.target_embedding = nn.Embedding(num_embeddings, embedding_size, padding_idx=0)
        self.gru_cell = nn.GRUCell(embedding_size + rnn_hidden_size, rnn_hidden_size)
        self.hidden_map = nn.Linear(rnn_hidden_size, rnn_hidden_size)
        self.classifier = nn.Linear(rnn_hidden_size * 2, num_embeddings)
        self.bos_index = bos_index

    def _init_indices(self, batch_size):
        return torch.ones(batch_size, dtype=torch.int64) * self.bos_index

    def _init_context_vectors(self, batch_size):
        return torch.zeros(batch_size, self._rnn_hidden_size)

    def forward(
        self,
        encoder_state,
        initial_hidden_state,
        target_sequence,
        mask=None,
        sample_probability=0.0,
    ):
        target_sequence = target_sequence.permute(1, 0)
        output_sequence_size = target_sequence.size(0)
        h_t = self.hidden_map(initial_hidden_state)
        batch_size = encoder_state.size(0)
        context_vectors = self._init_context_vectors(batch_size)
        y_t_index = self._init_indices(batch_size)
        output_vectors, self._cached_p_attn = [], []
        for i in range(output_sequence_size):
            use_sample = torch.rand(1).item() < sample_probability
            if not use_sample:
                y_t_index = target_sequence[i]
            y_input_vector = self.target_embedding(y_t_index)
            rnn_input = torch.cat([y_input_vector, context_vectors], dim=1)
            h_t = self.gru_cell(rnn_input, h_t)
            context_vectors, p_attn = terse_attention(encoder_state, h_t, mask)
            self._cached_p_attn.append(p_attn.detach())
            prediction_vector = torch.cat((context_vectors, h_t), dim=1)
            score_for_y_t_index = self.classifier(
                F.dropout(prediction_vector, 0.1, training=self.training)
            )
            if use_sample:
                p_y_t_index = F.softmax(score_for_y_t_index, dim=1)
                y_t_index = torch.multinomial(p_y_t_index, 1).squeeze()
            output_vectors.append(score_for_y_t_index)
        return torch.stack(output_vectors).permute(1, 0, 2)


class NMTModel(nn.Module):
    def __init__(self, V, emb, hid):
        super().__init__()
        self.encoder = NMTEncoder(V, emb, hid)
        self.decoder = NMTDecoder(V, emb, hid * 2, BOS)

    def forward(self, x_source, x_source_lengths, target_sequence, sample_probability=0.0):
        encoder_state, final_hidden_states = self.encoder(x_source, x_source_lengths)
        mask = x_source != PAD
        return self.decoder(
            encoder_state,
            final_hidden_states,
            target_sequence,
            mask=mask,
            sample_probability=sample_probability,
        )


def sequence_loss(y_pred, y_true, mask_index=PAD):
    y_pred = y_pred.contiguous().view(-1, y_pred.size(2))
    y_true = y_true.contiguous().view(-1)
    return F.cross_entropy(y_pred, y_true, ignore_index=mask_index)


def compute_accuracy(y_pred, y_true, mask_index=PAD):
    _, y_pred_indices = y_pred.max(dim=2)
    correct = torch.eq(y_pred_indices, y_true).float()
    valid = torch.ne(y_true, mask_index).float()
    return ((correct * valid).sum() / valid.sum()).item() * 100


enc = NMTEncoder(V, 6, 8)
es, fh = enc(x, sl)
print("encoder states:", es.shape, "final hidden:", fh.shape)
q = torch.randn(8, 16)
c1, p1, s1 = verbose_attention(es, q)
c2, p2 = terse_attention(es, q)
print("verbose == terse:", torch.allclose(c1, c2, atol=1e-6), torch.allclose(p1, p2))
mask = x != PAD
c3, p3 = terse_attention(es, q, mask)
print("masked probs row 7:", p3[7], "sum:", p3.sum(-1).round(decimals=4))
print(
    "masked_fill:",
    torch.tensor([1.0, 2.0, 3.0]).masked_fill(torch.tensor([False, True, False]), -1e9),
)

model = NMTModel(V, 8, 12)
print(model)
n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"trainable params: {n_params:,}")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
tr_src, tr_tgt = make_pairs(256)
for epoch in range(10):
    model.train()
    tot = 0.0
    for i in range(0, 256, 32):
        xb, lb, yb = to_batch(tr_src[i : i + 32], tr_tgt[i : i + 32])
        y_in, y_out = yb[:, :-1], yb[:, 1:]
        pred = model(xb, lb, y_in, sample_probability=0.1 * (epoch > 4))
        loss = sequence_loss(pred, y_out)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        tot += loss.item()
    sched.step(tot)
    acc = compute_accuracy(pred, y_out)
    print(
        f"epoch {epoch}: loss {tot / 8:.4f} last-batch acc {acc:.1f}% lr {opt.param_groups[0]['lr']}"
    )

model.eval()
xv, lv, yv = to_batch(*make_pairs(6))
with torch.no_grad():
    pv = model(xv, lv, yv[:, :-1])
print("teacher-forced val acc:", round(compute_accuracy(pv, yv[:, 1:]), 2))
attn = torch.stack(model.decoder._cached_p_attn).permute(1, 0, 2)
print("attention map for sample 0:", attn.shape)
print(attn[0, :3].round(decimals=2))


@torch.no_grad()
def greedy_decode(model, xs, ls, max_len=8):
    es, fh = model.encoder(xs, ls)
    dec = model.decoder
    mask = xs != PAD
    h = dec.hidden_map(fh)
    ctx = dec._init_context_vectors(xs.size(0))
    y = dec._init_indices(xs.size(0))
    out = []
    for _ in range(max_len):
        h = dec.gru_cell(torch.cat([dec.target_embedding(y), ctx], 1), h)
        ctx, _ = terse_attention(es, h, mask)
        y = dec.classifier(torch.cat([ctx, h], 1)).argmax(-1)
        out.append(y)
    return torch.stack(out, 1)


dec_out = greedy_decode(model, xv, lv)
for i in range(3):
    src_str = xv[i][xv[i] != PAD].tolist()
    pred = dec_out[i].tolist()
    pred = pred[: pred.index(EOS)] if EOS in pred else pred
    print(
        f"src {src_str} -> pred {pred} | want {(torch.flip(xv[i][xv[i] != PAD], [0]) + 1).tolist()}"
    )


@torch.no_grad()
def beam_decode(model, xs, ls, beam=3, max_len=7):
    es, fh = model.encoder(xs[:1], ls[:1])
    dec = model.decoder
    beams = [(0.0, [BOS], dec.hidden_map(fh), dec._init_context_vectors(1))]
    for _ in range(max_len):
        cand = []
        for score, toks, h, ctx in beams:
            if toks[-1] == EOS:
                cand.append((score, toks, h, ctx))
                continue
            h2 = dec.gru_cell(
                torch.cat([dec.target_embedding(torch.tensor([toks[-1]])), ctx], 1), h
            )
            ctx2, _ = terse_attention(es, h2)
            logp = F.log_softmax(dec.classifier(torch.cat([ctx2.view(1, -1), h2], 1)), -1)[0]
            top = torch.topk(logp, beam)
            for lp, ix in zip(top.values.tolist(), top.indices.tolist()):
                cand.append((score + lp, toks + [ix], h2, ctx2.view(1, -1)))
        beams = sorted(cand, key=lambda b: b[0], reverse=True)[:beam]
    return [(round(s, 3), t) for s, t, _, _ in beams]


print("beam:", beam_decode(model, xv, lv))

# built-in attention modules for comparison
mha = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
print(mha)
qkv = torch.randn(2, 5, 8)
kpm = torch.tensor([[False] * 5, [False, False, False, True, True]])
ao, aw = mha(qkv, qkv, qkv, key_padding_mask=kpm)
print(
    "mha out:", ao.shape, "weights:", aw.shape, "masked cols zero:", aw[1, :, 3:].abs().max().item()
)
ao2, aw2 = mha(qkv, qkv, qkv, need_weights=True, average_attn_weights=False)
print("per-head weights:", aw2.shape)
causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
print("causal mask:\n", causal)
sd = F.scaled_dot_product_attention(qkv, qkv, qkv, is_causal=True)
manual = (
    F.softmax((qkv @ qkv.transpose(-2, -1) / 8**0.5).masked_fill(causal, float("-inf")), -1) @ qkv
)
print("sdpa causal == manual:", torch.allclose(sd, manual, atol=1e-6))
try:
    nn.MultiheadAttention(embed_dim=8, num_heads=3)
except AssertionError as e:
    print("AssertionError:", e)
