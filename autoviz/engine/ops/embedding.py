"""Embeddings (lookup tables), embedding bags and one-hot codes."""

import numpy as np

from ..grad_mode import no_grad
from ..tensor import make
from .arguments import dtype_word
from .base import Op


class Embedding(Op):
    """z = weight[indices];  dz/dweight = the gradient rows added at their indices (none at
    padding_idx)."""

    _backward_name = "EmbeddingBackward0"

    @staticmethod
    def forward(ctx, weight, indices=None, padding_idx=None, scale_grad_by_freq=False):
        ctx.info = (np.shape(weight), indices, padding_idx, scale_grad_by_freq)
        return np.asarray(np.asarray(weight)[indices])

    @staticmethod
    def backward(ctx, grad):
        shape, indices, padding_idx, by_freq = ctx.info
        full = np.zeros(shape, np.result_type(grad))
        if by_freq:  # each row's gradient ÷ how often the batch picked that row
            rows = np.asarray(indices) % shape[0]
            counts = np.bincount(rows.reshape(-1), minlength=shape[0])
            grad = grad * (1 / counts[rows]).astype(full.dtype)[..., None]
        np.add.at(full, indices, grad)
        if padding_idx is not None:
            full[padding_idx] = 0
        return full


class EmbeddingBag(Op):
    """z[b] = the sum, mean or max of weight's rows at the indices of bag b (each row
    scaled by its per_sample_weight);  dz/dweight = each bag's gradient added to its rows
    (divided by the bag's size for the mean; only to the row that was largest for max)."""

    _backward_name = "EmbeddingBagBackward0"

    @staticmethod
    def forward(
        ctx,
        weight,
        indices=None,
        bags=None,
        mode="mean",
        per_sample=None,
        padding_idx=None,
        by_freq=False,
    ):
        out = np.zeros((len(bags), weight.shape[1]), weight.dtype)
        chosen = np.zeros((len(bags), weight.shape[1]), np.int64)
        for b, members in enumerate(bags):
            rows = [i for i in members if padding_idx is None or indices[i] != padding_idx]
            if not rows:
                continue
            picked = weight[indices[rows]]
            if per_sample is not None:
                picked = picked * per_sample[rows][:, None]
            if mode == "max":
                best = np.argmax(picked, axis=0)
                chosen[b] = indices[rows][best]
                out[b] = picked[best, np.arange(picked.shape[1])]
            else:
                total = np.zeros(weight.shape[1], weight.dtype)
                for row in picked:  # one row after another, as PyTorch adds them
                    total += row
                out[b] = total / weight.dtype.type(len(rows)) if mode == "mean" else total
        ctx.info = (np.shape(weight), indices, bags, mode, per_sample, padding_idx, chosen, by_freq)
        return out

    @staticmethod
    def backward(ctx, grad):
        shape, indices, bags, mode, per_sample, padding_idx, chosen, by_freq = ctx.info
        full = np.zeros(shape, grad.dtype)
        if by_freq and mode != "max":
            return _by_frequency(full, grad, indices, bags, mode, per_sample, padding_idx)
        for b, members in enumerate(bags):
            rows = [i for i in members if padding_idx is None or indices[i] != padding_idx]
            if not rows:
                continue
            if mode == "max":
                full[chosen[b], np.arange(shape[1])] += grad[b]
                continue
            g = grad[b] / grad.dtype.type(len(rows)) if mode == "mean" else grad[b]
            for i in rows:
                full[indices[i]] += g * per_sample[i] if per_sample is not None else g
        return full


def _by_frequency(full, grad, indices, bags, mode, per_sample, padding_idx):
    """The bags' gradient with scale_grad_by_freq, as torch's CPU kernel makes it: each
    contribution times 1 / a count and 1 / its bag's size (mean), one double scale. That
    kernel divides the k-th distinct index (in sorted order) by the frequency of the k-th
    entry of the sorted indices, not of that index itself; autoviz gives torch's numbers."""
    sorted_indices = np.sort(indices, kind="stable")
    frequency = np.bincount(indices, minlength=full.shape[0])
    divisor = {u: frequency[sorted_indices[k]] for k, u in enumerate(np.unique(indices))}
    for b, members in enumerate(bags):
        rows = [i for i in members if padding_idx is None or indices[i] != padding_idx]
        for i in rows:
            scale = float(per_sample[i]) if per_sample is not None else 1.0
            scale /= divisor[indices[i]]
            if mode == "mean":
                scale /= len(rows)
            full[indices[i]] += grad[b] * grad.dtype.type(scale)
    return full


def _indices(input, what="embedding") -> np.ndarray:
    indices = np.asarray(input._data)
    if indices.dtype.kind not in "iu":
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{dtype_word(input)}Tensor instead (while "
            f"checking arguments for {what})"
        )
    return indices


def _renorm(weight, indices, max_norm, norm_type) -> None:
    """Rows used whose norm exceeds max_norm are scaled down to it, in place (as PyTorch's
    embedding_renorm_ does, outside autograd)."""
    with no_grad():
        store = weight._storage()
        for row in np.unique(indices):
            norm = np.linalg.norm(store[row].astype(np.float64), ord=norm_type)
            if norm > max_norm:
                store[row] *= store.dtype.type(max_norm / (norm + 1e-7))


def embedding(
    input,
    weight,
    padding_idx=None,
    max_norm=None,
    norm_type=2.0,
    scale_grad_by_freq=False,
    sparse=False,
):
    """The rows of `weight` at the integer indices `input`."""
    indices = _indices(input)
    if indices.size and (indices.max() >= weight.shape[0] or indices.min() < 0):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        _renorm(weight, indices, max_norm, norm_type)
    # sparse=True: the gradient is the same numbers, dense (sparse layouts are out of scope)
    return Embedding.apply(
        weight, indices=indices, padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq
    )


def embedding_bag(
    input,
    weight,
    offsets=None,
    max_norm=None,
    norm_type=2,
    scale_grad_by_freq=False,
    mode="mean",
    sparse=False,
    per_sample_weights=None,
    include_last_offset=False,
    padding_idx=None,
):
    """The sum, mean or max of the embeddings in each bag: rows of a 2-d input, or the
    slices of a 1-d input that `offsets` starts."""
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                "mini-batch of fixed length sequences. However, found offsets of type "
                f"{type(offsets)}"
            )
        width = input.shape[1]
        starts = list(range(0, input.numel(), width))
    elif input.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        starts = [int(o) for o in np.asarray(offsets._data)]
        if include_last_offset:
            starts = starts[:-1]
    else:
        raise ValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}"
        )
    indices = _indices(input, "embedding_bag").reshape(-1)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request "
            "on GitHub."
        )
    if indices.size and (indices.max() >= weight.shape[0] or indices.min() < 0):
        raise IndexError("index out of range in self")
    if max_norm is not None:
        _renorm(weight, indices, max_norm, norm_type)
    ends = [*starts[1:], len(indices)]
    if include_last_offset and input.ndim == 1:
        ends[-1] = int(np.asarray(offsets._data)[-1]) if len(starts) else 0
    bags = [list(range(a, b)) for a, b in zip(starts, ends, strict=True)]
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    per_sample = None if per_sample_weights is None else per_sample_weights._data
    return EmbeddingBag.apply(
        weight,
        indices=indices,
        bags=bags,
        mode=mode,
        per_sample=per_sample,
        padding_idx=padding_idx,
        by_freq=scale_grad_by_freq,
    )


def one_hot(tensor, num_classes=-1):
    """Each integer class index as a row of zeros with a one at that index (int64)."""
    data = np.asarray(tensor._data)
    if data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if data.size and data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(data.max()) + 1 if data.size else 0
    elif data.size and data.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = np.zeros((*data.shape, num_classes), np.int64)
    np.put_along_axis(out, data[..., None], 1, axis=-1)
    return make(out)
