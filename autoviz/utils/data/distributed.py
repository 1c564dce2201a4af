"""DistributedSampler: one replica's share of a dataset (num_replicas and rank given, as
autoviz runs in one process)."""

import math

from ...engine.fidelity.random import Generator
from ...engine.sampling import randperm
from .sampler import Sampler


class DistributedSampler(Sampler):
    """Every num_replicas-th index from rank, after a shuffle seeded by seed + epoch and
    padding to a multiple of num_replicas (or dropping the tail with drop_last)."""

    def __init__(
        self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False
    ):
        if num_replicas is None or rank is None:
            raise RuntimeError(
                "Default process group has not been initialized, please make sure to call "
                "init_process_group."
            )
        if rank >= num_replicas or rank < 0:
            raise ValueError(
                f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]"
            )
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.epoch, self.drop_last, self.shuffle, self.seed = 0, drop_last, shuffle, seed
        if drop_last and len(dataset) % num_replicas != 0:
            self.num_samples = math.ceil((len(dataset) - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(len(dataset) / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        if self.shuffle:
            g = Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = randperm(len(self.dataset), generator=g).tolist()
        else:
            indices = list(range(len(self.dataset)))
        if not self.drop_last:
            padding = self.total_size - len(indices)
            if padding <= len(indices):
                indices += indices[:padding]
            else:
                indices += (indices * math.ceil(padding / len(indices)))[:padding]
        else:
            indices = indices[: self.total_size]
        return iter(indices[self.rank : self.total_size : self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """The epoch the next shuffle is seeded with (each epoch a different order)."""
        self.epoch = epoch
