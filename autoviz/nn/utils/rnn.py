"""Packed sequences: a batch of sequences of different lengths, without the padding."""

from collections import namedtuple

import numpy as np

from ...engine.ops.base import Op
from ...engine.ops.indexing import CopySlices
from ...engine.ops.recurrent import index_select
from ...engine.tensor import Tensor, make, tensor

PackedSequence_ = namedtuple(
    "PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"]
)
PackedSequence_.__module__ = __name__


class PackedSequence(PackedSequence_):
    """The steps of sorted sequences laid end to end (data), and how many sequences are
    still running at each step (batch_sizes); what pack_padded_sequence gives an RNN."""

    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        return type(self)(
            self.data.to(*args, **kwargs),
            self.batch_sizes,
            self.sorted_indices,
            self.unsorted_indices,
        )

    def cpu(self):
        return self

    def double(self):
        return self.to(np.float64)

    def float(self):
        return self.to(np.float32)

    @property
    def is_cuda(self) -> bool:
        return False

    def is_pinned(self) -> bool:
        return False


def invert_permutation(permutation):
    if permutation is None:
        return None
    data = np.asarray(permutation._data)
    out = np.empty_like(data)
    out[data] = np.arange(len(data))
    return make(out)


class PackPaddedSequence(Op):
    """z = the rows of each time step that belong to sequences still running, end to end;
    dz/dinput = each row's gradient back at its step and batch position (zeros in padding)."""

    _backward_name = "PackPaddedSequenceBackward0"

    @staticmethod
    def forward(ctx, x, sizes=()):
        ctx.info = (np.shape(x), sizes)
        return np.concatenate([x[t, :n] for t, n in enumerate(sizes)], axis=0)

    @staticmethod
    def backward(ctx, grad):
        shape, sizes = ctx.info
        full = np.zeros(shape, grad.dtype)
        start = 0
        for t, n in enumerate(sizes):
            full[t, :n] = grad[start : start + n]
            start += n
        return full


def _lengths(lengths) -> np.ndarray:
    data = lengths._data if isinstance(lengths, Tensor) else np.asarray(lengths)
    return np.asarray(data, np.int64).reshape(-1)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded (T, B, *) batch (B, T, * with batch_first) of sequences of the given
    lengths; enforce_sorted=False sorts them (longest first) and remembers the order."""
    lengths_ = _lengths(lengths)
    sorted_indices = None
    if enforce_sorted:
        if np.any(np.diff(lengths_) > 0):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                "pack_sequence to sidestep this requirement if you do not need ONNX "
                "exportability."
            )
    else:
        order = np.argsort(-lengths_, kind="stable")
        lengths_ = lengths_[order]
        sorted_indices = make(order.astype(np.int64))
        input = index_select(input, 0 if batch_first else 1, sorted_indices)
    if lengths_.size and lengths_[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in "
            "'lengths' that is <= 0"
        )
    if batch_first:
        input = input.transpose(0, 1)
    steps = int(lengths_[0]) if lengths_.size else 0
    sizes = tuple(int(np.sum(lengths_ > t)) for t in range(steps))
    data = PackPaddedSequence.apply(input, sizes=sizes)
    return PackedSequence(data, make(np.asarray(sizes, np.int64)), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: (padded batch, lengths)."""
    sizes = [int(n) for n in sequence.batch_sizes._data]
    data = sequence.data
    steps = len(sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{steps}"
            )
        steps = total_length
    batch = sizes[0] if sizes else 0
    out = make(np.full((steps, batch, *data.shape[1:]), padding_value, data._data.dtype))
    start = 0
    for t, n in enumerate(sizes):
        out = CopySlices.apply(out, data[start : start + n], key=(t, slice(0, n)))
        start += n
    lengths = np.array([sum(1 for n in sizes if n > b) for b in range(batch)], np.int64)
    if batch_first:
        out = out.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        out = index_select(out, 0 if batch_first else 1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices._data]
    return out, make(lengths)


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack sequences of different lengths into one padded batch (T, B, *), shorter ones
    padded with padding_value."""
    if padding_side not in ("left", "right"):
        raise ValueError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    sequences = list(sequences)
    longest = max(len(s) for s in sequences)
    tail = sequences[0].shape[1:]
    shape = (len(sequences), longest, *tail) if batch_first else (longest, len(sequences), *tail)
    out = make(np.full(shape, padding_value, sequences[0]._data.dtype))
    for i, seq in enumerate(sequences):
        n = len(seq)
        rows = slice(0, n) if padding_side == "right" else slice(longest - n, longest)
        key = (i, rows) if batch_first else (rows, i)
        out = CopySlices.apply(out, seq, key=key)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The sequences of a padded batch, each cut to its length."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[: int(n)] for seq, n in zip(padded_sequences, _lengths(lengths), strict=False)]


def pack_sequence(sequences, enforce_sorted=True):
    """pad_sequence then pack_padded_sequence."""
    lengths = tensor([len(s) for s in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences a PackedSequence holds."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
