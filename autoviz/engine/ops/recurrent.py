"""The recurrent ops PyTorch's CPU build records: the gate pieces of unsafe_chunk, the fused
oneDNN LSTM layer (MkldnnRnnLayerBackward0) it runs float32 LSTMs through, the in-place
transpose of a batch_first output; and one step of each cell (rnn, lstm, gru) from ordinary
ops, as ATen's RNN.cpp writes them.

The fused LSTM layer has three outputs (the output sequence, the last hidden state and the
last cell state), and the gate pieces four: one node each, with an output per piece, as
PyTorch records them."""

import numpy as np

from .base import Op, SeveralOutputs
from .indexing import Pieces
from .linear import linear
from .shape import Transpose


class UnsafeSplit(Pieces):
    """The gates of `gates.unsafe_chunk(n, 1)`;  dz/dgates = each gate's gradient at its
    slice, zeros for a gate none reached."""

    _backward_name = "UnsafeSplitBackward0"


def _sigmoid(x):
    return (1 / (1 + np.exp(-x))).astype(x.dtype)


def lstm_layer(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse=False):
    """One LSTM layer over a (T, B, I) sequence in numpy: the output (T, B, H), the last
    hidden and cell states (B, H), and what backward needs at each step."""
    steps = range(len(x) - 1, -1, -1) if reverse else range(len(x))
    pre = np.matmul(x, w_ih.T)
    if b_ih is not None:
        pre = pre + b_ih
    h, c = h0, c0
    out = np.empty((*x.shape[:2], w_hh.shape[1]), x.dtype)
    cache = {}
    for t in steps:
        gates = np.matmul(h, w_hh.T) + pre[t]
        if b_hh is not None:
            gates = gates + b_hh
        i, f, g, o = np.split(gates, 4, axis=1)
        i, f, g, o = _sigmoid(i), _sigmoid(f), np.tanh(g), _sigmoid(o)
        c_next = f * c + i * g
        tanh_c = np.tanh(c_next)
        cache[t] = (h, c, i, f, g, o, tanh_c)
        h, c = o * tanh_c, c_next
        out[t] = h
    return out, h, c, cache


class MkldnnRnnLayer(SeveralOutputs):
    """An LSTM layer over a whole sequence (`computed`: lstm_layer's result): the output
    sequence, the last hidden state and the last cell state, one node with three outputs.
    Backward is backpropagation through time: at each step, with c' = f c + i g and
    h' = o tanh(c'), dc' gathers dh' o (1 - tanh² c') and the next step's dc; the gates get
    di = dc' g, df = dc' c, dg = dc' i, do = dh' tanh c' (times their own derivatives), and
    dx, dh, dW, db follow from the gate pre-activations."""

    _backward_name = "MkldnnRnnLayerBackward0"

    @staticmethod
    def forward(ctx, x, w_ih, w_hh, b_ih, b_hh, h0, c0, computed=None, reverse=False):
        ctx.save_for_backward(x, w_ih, w_hh)
        ctx.info = (computed[3], reverse, b_ih is not None)
        return computed[:3]

    @staticmethod
    def backward(ctx, grads):
        x, w_ih, w_hh = ctx.saved_tensors
        cache, reverse, has_bias = ctx.info
        g_out, g_h, g_c = grads
        steps = range(len(x)) if reverse else range(len(x) - 1, -1, -1)
        hidden = w_hh.shape[1]
        dh = np.zeros((x.shape[1], hidden), x.dtype)
        dc = np.zeros_like(dh)
        if g_h is not None:
            dh = dh + g_h
        if g_c is not None:
            dc = dc + g_c
        d_pre = np.empty((*x.shape[:2], 4 * hidden), x.dtype)
        dw_hh = np.zeros_like(w_hh)
        for t in steps:
            h, c, i, f, g, o, tanh_c = cache[t]
            if g_out is not None:
                dh = dh + g_out[t]
            dc = dc + dh * o * (1 - tanh_c * tanh_c)
            gates = np.concatenate(
                [
                    dc * g * i * (1 - i),
                    dc * c * f * (1 - f),
                    dc * i * (1 - g * g),
                    dh * tanh_c * o * (1 - o),
                ],
                axis=1,
            )
            d_pre[t] = gates
            dw_hh += gates.T @ h
            dh = gates @ w_hh
            dc = dc * f
        flat = d_pre.reshape(-1, 4 * hidden)
        dx = (flat @ w_ih).reshape(x.shape)
        dw_ih = flat.T @ x.reshape(-1, x.shape[-1])
        db = flat.sum(axis=0) if has_bias else None
        return dx, dw_ih, dw_hh, db, db, dh, dc


class TransposeInplace(Transpose):
    """output.transpose_(0, 1) of a batch_first RNN or GRU (PyTorch transposes in place)."""

    _backward_name = "TransposeBackward1"


class IndexSelect(Op):
    """z = a's slices at `index` along dim (sorting a packed batch);  dz/da = each slice's
    gradient added back at its index."""

    _backward_name = "IndexSelectBackward0"

    @staticmethod
    def forward(ctx, a, index=None, dim=0):
        ctx.info = (np.shape(a), index, dim)
        return np.take(a, index, axis=dim)

    @staticmethod
    def backward(ctx, grad):
        shape, index, dim = ctx.info
        full = np.zeros(shape, grad.dtype)
        np.add.at(np.moveaxis(full, dim, 0), index, np.moveaxis(grad, dim, 0))
        return full


def index_select(t, dim: int, index):
    return IndexSelect.apply(t, index=np.asarray(index._data), dim=dim)


def unsafe_chunk(t, chunks: int, dim: int = 1):
    """The gate pieces of t along dim, recorded as PyTorch's unsafe_chunk."""
    size = t.shape[dim] // chunks
    before = (slice(None),) * dim
    keys = [(*before, slice(k * size, (k + 1) * size)) for k in range(chunks)]
    return list(UnsafeSplit.apply(t, keys=keys, dim=dim))


# -- one step of each cell, as ATen's RNN.cpp computes it --------------------------------------
def rnn_step(pre, h, w_hh, b_hh, nonlinearity):
    """h' = act(h W_hhᵀ + b_hh + pre), pre the input's projection."""
    total = linear(h, w_hh, b_hh) + pre
    return total.tanh() if nonlinearity == "tanh" else total.relu()


def lstm_step(pre, h, c, w_hh, b_hh, w_hr=None):
    """The LSTM cell: gates i, f, g, o from h W_hhᵀ + b_hh + pre; c' = f c + i g;
    h' = o tanh(c') (projected by W_hr when the layer has proj_size)."""
    gates = linear(h, w_hh, b_hh) + pre
    i, f, g, o = unsafe_chunk(gates, 4)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    c_next = f * c + i * g
    h_next = o * c_next.tanh()
    if w_hr is not None:
        h_next = linear(h_next, w_hr)
    return h_next, c_next


def gru_step(pre, h, w_hh, b_hh):
    """The GRU cell: r = σ(hr + ir), z = σ(hz + iz), n = tanh(in + r ⊙ hn),
    h' = (h - n) ⊙ z + n."""
    ir, iz, i_n = unsafe_chunk(pre, 3)
    hr, hz, hn = unsafe_chunk(linear(h, w_hh, b_hh), 3)
    r = (hr + ir).sigmoid()
    z = (hz + iz).sigmoid()
    n = (i_n + hn * r).tanh()
    return (h - n) * z + n


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """torch.rnn_tanh_cell: tanh(hx W_hhᵀ + b_hh + input W_ihᵀ + b_ih)."""
    return rnn_step(linear(input, w_ih, b_ih), hx, w_hh, b_hh, "tanh")


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """torch.rnn_relu_cell: relu(hx W_hhᵀ + b_hh + input W_ihᵀ + b_ih)."""
    return rnn_step(linear(input, w_ih, b_ih), hx, w_hh, b_hh, "relu")


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """torch.lstm_cell: one LSTM step, (h', c') from hx = (h, c)."""
    return lstm_step(linear(input, w_ih, b_ih), hx[0], hx[1], w_hh, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """torch.gru_cell: one GRU step."""
    return gru_step(linear(input, w_ih, b_ih), hx, w_hh, b_hh)
