"""Attention as PyTorch computes it on the CPU: scaled dot-product attention (one fused node
for 4-d inputs, as its flash kernel records it; the math path otherwise) and multi-head
attention's forward, composed from projections, batched products and softmax."""

import math

import numpy as np

from ..tensor import make
from . import linalg, reductions
from . import shape as shape_ops
from .base import Op
from .dropout import dropout
from .linear import linear


def _softmax_rows(scores):
    """softmax over the last axis; a row of -inf only gives zeros (PyTorch's safe softmax)."""
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    total = np.sum(e, axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, e / total, 0).astype(scores.dtype)


class ScaledDotProductFlashAttentionForCpu(Op):
    """z = softmax(q kᵀ · scale + mask) v;  with P that softmax and dP = g vᵀ:
    dz/dv = Pᵀ g, dS = P (dP - rowsum(dP ⊙ P)), dz/dq = dS k · scale, dz/dk = dSᵀ q · scale."""

    _backward_name = "ScaledDotProductFlashAttentionForCpuBackward0"

    @staticmethod
    def forward(ctx, q, k, v, mask=None, scale=1.0):
        scores = np.matmul(q, np.swapaxes(k, -1, -2)) * q.dtype.type(scale)
        if mask is not None:
            scores = scores + mask
        p = _softmax_rows(scores)
        ctx.save_for_backward(q, k, v, p)
        ctx.info = scale
        return np.matmul(p, v)

    @staticmethod
    def backward(ctx, grad):
        q, k, v, p = ctx.saved_tensors
        scale = grad.dtype.type(ctx.info)
        dv = np.matmul(np.swapaxes(p, -1, -2), grad)
        dp = np.matmul(grad, np.swapaxes(v, -1, -2))
        ds = p * (dp - np.sum(dp * p, axis=-1, keepdims=True))
        dq = np.matmul(ds, k) * scale
        dk = np.matmul(np.swapaxes(ds, -1, -2), q) * scale
        return dq, dk, dv


def _additive(mask, dtype, causal_shape=None):
    """A mask as numbers to add to the scores: a bool mask's False entries -inf."""
    if mask is None:
        return None
    data = np.asarray(mask._data)
    if data.dtype == np.bool_:
        return np.where(data, 0, -np.inf).astype(dtype)
    return data.astype(dtype)


def _causal(n_q, n_k, dtype):
    return np.where(np.tril(np.ones((n_q, n_k), bool)), 0, -np.inf).astype(dtype)


def scaled_dot_product_attention(
    query,
    key,
    value,
    attn_mask=None,
    dropout_p=0.0,
    is_causal=False,
    scale=None,
    enable_gqa=False,
):
    """softmax(q kᵀ / √E + mask) v over the last two axes: one fused node for 4-d inputs
    without dropout (PyTorch's CPU flash kernel), the math path's ops otherwise."""
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True"
        )
    dt = query._data.dtype
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    mask = _additive(attn_mask, dt)
    if is_causal:
        mask = _causal(query.shape[-2], key.shape[-2], dt)
    if enable_gqa and key.shape[-3] != query.shape[-3]:
        repeats = query.shape[-3] // key.shape[-3]
        key = make(np.repeat(key._data, repeats, axis=-3)) if not key.requires_grad else key
        value = make(np.repeat(value._data, repeats, axis=-3)) if not value.requires_grad else value
    if query.ndim == 4 and not dropout_p:
        return ScaledDotProductFlashAttentionForCpu.apply(query, key, value, mask=mask, scale=scale)
    root = math.sqrt(scale)  # PyTorch's math path scales q and k by √scale each
    scores = linalg.matmul(query * root, key.transpose(-2, -1) * root)
    if mask is not None:
        scores = scores + make(mask)
    weights = reductions.softmax(scores, -1)
    if dropout_p:
        weights = dropout(weights, dropout_p, True)
    return linalg.matmul(weights, value)


def _canonical_mask(mask, dtype):
    """A bool mask as a float one (-inf where True), as PyTorch's _canonical_mask makes it."""
    if mask is None:
        return None
    data = np.asarray(mask._data)
    if data.dtype == np.bool_:
        return make(np.where(data, -np.inf, 0).astype(dtype))
    return mask


def _check_shapes(query, key, value, num_heads):
    if query.ndim not in (2, 3):
        raise AssertionError(
            f"query should be unbatched 2D or batched 3D tensor but received {query.ndim}-D "
            "query tensor"
        )
    if key.ndim != query.ndim or value.ndim != query.ndim:
        raise AssertionError(
            f"For {'batched (3-D)' if query.ndim == 3 else 'unbatched (2-D)'} `query`, expected "
            f"`key` and `value` to be {query.ndim}-D but found {key.ndim}-D and {value.ndim}-D "
            "tensors respectively"
        )
    return query.ndim == 3


def multi_head_attention_forward(
    query,
    key,
    value,
    embed_dim_to_check,
    num_heads,
    in_proj_weight,
    in_proj_bias,
    bias_k,
    bias_v,
    add_zero_attn,
    dropout_p,
    out_proj_weight,
    out_proj_bias,
    training=True,
    key_padding_mask=None,
    need_weights=True,
    attn_mask=None,
    use_separate_proj_weight=False,
    q_proj_weight=None,
    k_proj_weight=None,
    v_proj_weight=None,
    static_k=None,
    static_v=None,
    average_attn_weights=True,
    is_causal=False,
):
    """Multi-head attention over (L, N, E) inputs, as PyTorch's function composes it:
    projections, heads split into the batch axis, scaled products, softmax, the output
    projection; with need_weights the averaged attention weights too."""
    batched = _check_shapes(query, key, value, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    dt = query._data.dtype
    key_padding_mask = _canonical_mask(key_padding_mask, dt)
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask."
        )
    attn_mask = _canonical_mask(attn_mask, dt)
    if embed_dim != embed_dim_to_check:
        raise AssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if not use_separate_proj_weight:
        q, k, v = _packed_projections(query, key, value, in_proj_weight, in_proj_bias)
    else:
        b_q = b_k = b_v = None
        if in_proj_bias is not None:
            b_q, b_k, b_v = in_proj_bias.chunk(3)
        q = linear(query, q_proj_weight, b_q)
        k = linear(key, k_proj_weight, b_k)
        v = linear(value, v_proj_weight, b_v)
    if attn_mask is not None and attn_mask.ndim == 2:
        if tuple(attn_mask.shape) != (tgt_len, key.shape[0]):
            raise RuntimeError(
                f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                f"{(tgt_len, key.shape[0])}."
            )
        attn_mask = attn_mask.unsqueeze(0)
    if bias_k is not None and bias_v is not None:
        k = shape_ops.cat([k, bias_k.repeat(1, bsz, 1)])
        v = shape_ops.cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = _pad_last(attn_mask)
        key_padding_mask = _pad_last(key_padding_mask)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = (
        static_k
        if static_k is not None
        else k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    )
    v = (
        static_v
        if static_v is not None
        else v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    )
    if add_zero_attn:
        zeros = make(np.zeros((bsz * num_heads, 1, head_dim), dt))
        k = shape_ops.cat([k, zeros], dim=1)
        v = shape_ops.cat([v, zeros], dim=1)
        attn_mask = _pad_last(attn_mask)
        key_padding_mask = _pad_last(key_padding_mask)
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(
                f"expecting key_padding_mask shape of {(bsz, src_len)}, but got "
                f"{key_padding_mask.shape}"
            )
        kpm = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
        kpm = kpm.reshape(bsz * num_heads, 1, src_len)
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
        scores = linalg.matmul(q_scaled, k.transpose(-2, -1))
        if attn_mask is not None:
            scores = attn_mask + scores
        weights = reductions.softmax(scores, -1)
        if dropout_p > 0.0:
            weights = dropout(weights, dropout_p)
        out = linalg.matmul(weights, v)
        out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.shape[1])
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.shape[0] == 1 and attn_mask.ndim == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, False)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.shape[1])
    return (out if batched else out.squeeze(1)), None


def _pad_last(mask):
    if mask is None:
        return None
    from .convolution import pad

    return pad(mask, (0, 1))


def _packed_projections(q, k, v, w, b):
    """q, k, v projected by one packed (3E, E) weight, as PyTorch's _in_projection_packed:
    one product for self-attention, two when key is value."""
    e = q.shape[-1]
    if k is v:
        if q is k:
            proj = linear(q, w, b)
            proj = (
                proj.view(*proj.shape[:-1], 3, e)
                .unsqueeze(0)
                .transpose(0, -2)
                .squeeze(-2)
                .contiguous()
            )
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([e, e * 2])
        b_q, b_kv = (None, None) if b is None else b.split([e, e * 2])
        q_proj = linear(q, w_q, b_q)
        kv = linear(k, w_kv, b_kv)
        kv = kv.view(*kv.shape[:-1], 2, e).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return q_proj, kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)
