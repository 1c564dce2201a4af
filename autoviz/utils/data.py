"""`torch.utils.data`: datasets, samplers, `DataLoader` and `random_split`, drawing their random
numbers in PyTorch's order (one seed per pass over a loader, then a permutation from it)."""

import bisect
import collections.abc
import copy
import itertools
import math
import warnings

import numpy as np

from ..engine import creation, dtypes
from ..engine.creation import zeros
from ..engine.fidelity.random import Generator, default_generator
from ..engine.sampling import randint, randperm
from ..engine.tensor import Tensor, tensor

__all__ = [
    "BatchSampler",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]


# -- random numbers, as PyTorch's data tools draw them --------------------------------------
def _draw_seed(generator=None) -> int:
    """`torch.empty((), dtype=torch.int64).random_(generator=...).item()`."""
    return int(zeros((), dtype=dtypes.int64).random_(generator=generator).item())


def _seeded(seed: int) -> Generator:
    generator = Generator()
    generator.manual_seed(seed)
    return generator


def _randperm(n: int, generator=None) -> list:
    """`torch.randperm(n, generator=...).tolist()`."""
    return randperm(n, generator=generator).tolist()


# -- datasets -----------------------------------------------------------------------------------
class Dataset:
    """Base of map-style datasets: `__getitem__(index)` and usually `__len__()`."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """Base of datasets read as a stream: `__iter__()`."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Samples are the index-th rows of each tensor: `(X[i], y[i])`."""

    def __init__(self, *tensors) -> None:
        if any(t.size(0) != tensors[0].size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    def __init__(self, dataset, indices) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after the other."""

    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


def random_split(dataset, lengths, generator=default_generator):
    """Split `dataset` into non-overlapping Subsets of the given lengths (or fractions of 1),
    from one random permutation of its indices."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _fraction_lengths(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = _randperm(sum(lengths), generator)
    ends = itertools.accumulate(lengths)
    return [Subset(dataset, indices[end - n : end]) for end, n in zip(ends, lengths, strict=True)]


def _fraction_lengths(total: int, fractions) -> list:
    """floor(total · fraction) each, the remainder given out one by one from the first."""
    sizes = []
    for i, frac in enumerate(fractions):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        sizes.append(math.floor(total * frac))
    for i in range(total - sum(sizes)):
        sizes[i % len(sizes)] += 1
    for i, size in enumerate(sizes):
        if size == 0:
            warnings.warn(
                f"Length of split at index {i} is 0. This might result in an empty dataset.",
                UserWarning,
                stacklevel=3,
            )
    return sizes


# -- samplers -----------------------------------------------------------------------------------
class Sampler:
    """Yields dataset indices."""

    def __init__(self, data_source=None) -> None:
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, 2, ... in order."""

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """The indices in a random order, a new one each pass (a fresh seed drawn each time)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source, self.replacement = data_source, replacement
        self._num_samples, self.generator = num_samples, generator
        if not isinstance(replacement, bool):
            raise TypeError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer value, but got "
                f"num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        # Drawn on the first next(), not at iter(): the order PyTorch draws its numbers in.
        generator = self.generator if self.generator is not None else _seeded(_draw_seed())
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from randint(0, n, (32,), generator=generator).tolist()
            yield from randint(0, n, (self.num_samples % 32,), generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from _randperm(n, generator)
        yield from _randperm(n, generator)[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices, generator=None) -> None:
        self.indices, self.generator = indices, generator

    def __iter__(self):
        for i in _randperm(len(self.indices), self.generator):
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class BatchSampler(Sampler):
    """Lists of `batch_size` indices from `sampler`; the last one shorter unless drop_last."""

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        indices = iter(self.sampler)
        while batch := list(itertools.islice(indices, self.batch_size)):
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return math.ceil(len(self.sampler) / self.batch_size)


# -- collating samples into batches ----------------------------------------------------------------
_ERROR = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


def default_convert(data):
    """numpy arrays inside `data` become tensors; everything else is left as it is."""
    if isinstance(data, Tensor):
        return data
    if isinstance(data, (np.ndarray, np.number)) and data.dtype.kind not in "OSU":
        return creation.as_tensor(np.asarray(data))
    if isinstance(data, collections.abc.Mapping):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, list):
        return [default_convert(d) for d in data]
    return data


def default_collate(batch):
    """Samples into one batch: tensors and numbers stacked, dicts and sequences collated
    field by field (tuples become lists, as in PyTorch)."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        from ..engine.ops.shape import stack

        return stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "OSU":
            raise TypeError(_ERROR.format(elem.dtype))
        return default_collate([creation.as_tensor(b) for b in batch])
    if isinstance(elem, np.number | np.bool_):
        return creation.as_tensor(np.asarray(batch))
    if isinstance(elem, bool):
        return tensor(batch)
    if isinstance(elem, float):
        return tensor(batch, dtype=dtypes.float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in elem}
        clone = copy.copy(elem) if isinstance(elem, collections.abc.MutableMapping) else None
        if clone is None:
            return collated
        clone.update(collated)
        return clone
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(s) for s in zip(*batch, strict=False)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(item) != len(elem) for item in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(s) for s in zip(*batch, strict=False)]
    raise TypeError(_ERROR.format(type(elem)))


def get_worker_info():
    """None: autoviz loads data in the main process only."""
    return None


# -- the loader -----------------------------------------------------------------------------------
class DataLoader:
    """Batches of a dataset: `for x, y in DataLoader(ds, batch_size=32, shuffle=True)`."""

    def __init__(
        self,
        dataset,
        batch_size=1,
        shuffle=None,
        sampler=None,
        batch_sampler=None,
        num_workers=0,
        collate_fn=None,
        pin_memory=False,
        drop_last=False,
        timeout=0,
        worker_init_fn=None,
        multiprocessing_context=None,
        generator=None,
        *,
        prefetch_factor=None,
        persistent_workers=False,
        pin_memory_device="",
        in_order=True,
    ) -> None:
        if num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; use num_workers=0 to disable "
                "multiprocessing."
            )
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (
            batch_size != 1 or shuffle or sampler is not None or drop_last
        ):
            raise ValueError(
                "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                "and drop_last"
            )
        self.dataset, self.num_workers, self.generator = dataset, num_workers, generator
        self.pin_memory, self.timeout, self.drop_last = pin_memory, timeout, drop_last
        if batch_sampler is not None:
            batch_size, drop_last = None, False
        if sampler is None:
            sampler = (
                RandomSampler(dataset, generator=generator)
                if shuffle
                else SequentialSampler(dataset)
            )
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.sampler, self.batch_sampler = batch_size, sampler, batch_sampler
        if collate_fn is None:
            collate_fn = default_collate if batch_sampler is not None else default_convert
        self.collate_fn = collate_fn

    def __iter__(self):
        # Each pass draws a base seed (for worker processes, unused here) as soon as it
        # starts, as PyTorch's iterator does: the global random numbers advance the same way.
        _draw_seed(self.generator)
        return self._batches()

    def _batches(self):
        if self.batch_sampler is None:
            for index in self.sampler:
                yield self.collate_fn(self.dataset[index])
            return
        for indices in self.batch_sampler:
            yield self.collate_fn([self.dataset[i] for i in indices])

    def __len__(self) -> int:
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)
