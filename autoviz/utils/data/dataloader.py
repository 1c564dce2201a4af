"""DataLoader: batches of a dataset in its sampler's order, collated into tensors."""

import collections.abc
import copy
import itertools

import numpy as np

from ...engine import creation, dtypes
from ...engine.tensor import Tensor, tensor
from . import workers
from ._seeds import _draw_seed
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

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
        from ...engine.ops.shape import stack

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
    """Inside a dataset's __getitem__ while a worker fetches: its WorkerInfo (id,
    num_workers, seed, dataset); else None."""
    return workers.current()


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
        if isinstance(dataset, IterableDataset) and shuffle not in (None, False):
            raise ValueError(
                "DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                f"shuffle={shuffle}"
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
        self.worker_init_fn = worker_init_fn
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
        # Each pass draws a base seed (for the workers) as soon as it starts, as PyTorch's
        # iterator does: the global random numbers advance the same way.
        base_seed = _draw_seed(self.generator)
        if self.num_workers and not isinstance(self.dataset, IterableDataset):
            return self._worker_batches(base_seed)
        return self._batches()

    def _worker_batches(self, base_seed: int):
        """Batch k fetched by worker k mod num_workers, in its own random streams (torch's
        workers run in processes; their batches come back in order)."""
        crew = [workers.Worker(self, w, base_seed) for w in range(self.num_workers)]
        steps = self.sampler if self.batch_sampler is None else self.batch_sampler
        for k, indices in enumerate(steps):
            with crew[k % len(crew)]:
                batch = self._fetch(indices)
            yield batch

    def _fetch(self, indices):
        if self.batch_sampler is None:
            return self.collate_fn(self.dataset[indices])
        return self.collate_fn([self.dataset[i] for i in indices])

    def _batches(self):
        if isinstance(self.dataset, IterableDataset):
            yield from self._stream()
            return
        steps = self.sampler if self.batch_sampler is None else self.batch_sampler
        for indices in steps:
            yield self._fetch(indices)

    def _stream(self):
        """An iterable dataset: its items in order, batch_size at a time."""
        items = iter(self.dataset)
        if self.batch_size is None:
            for item in items:
                yield self.collate_fn(item)
            return
        while batch := list(itertools.islice(items, self.batch_size)):
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if isinstance(self.dataset, IterableDataset):
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)
