"""DataLoader's worker processes, run in the main process as torch seeds them: worker w of W
fetches batches w, w + W, ... with its own random streams (torch's, Python's and numpy's,
seeded from the loader's base seed), so a dataset that draws random numbers gives torch's."""

import random
from dataclasses import dataclass

import numpy as np

from ...engine.fidelity import random as _torch_random

_CURRENT = []  # the WorkerInfo of the worker fetching now (empty in the main process)


@dataclass
class WorkerInfo:
    """What `get_worker_info()` tells a dataset inside a worker."""

    id: int
    num_workers: int
    seed: int
    dataset: object


def current():
    return _CURRENT[-1] if _CURRENT else None


class Worker:
    """One worker's random streams; `with worker:` fetches in them, the main process's kept."""

    def __init__(self, loader, number: int, base_seed: int) -> None:
        self.info = WorkerInfo(number, loader.num_workers, base_seed + number, loader.dataset)
        self.init_fn, self.base_seed, self.states = loader.worker_init_fn, base_seed, None

    def __enter__(self):
        self.main = _states()
        if self.states is None:  # its first batch: seeded as torch's worker loop seeds them
            random.seed(self.info.seed)
            _torch_random.default_generator.manual_seed(self.info.seed)
            np.random.seed(numpy_seed(self.base_seed, self.info.id))
            _CURRENT.append(self.info)
            if self.init_fn is not None:
                self.init_fn(self.info.id)
        else:
            _restore(self.states)
            _CURRENT.append(self.info)
        return self

    def __exit__(self, *exc) -> None:
        _CURRENT.pop()
        self.states = _states()
        _restore(self.main)


def _states() -> tuple:
    generator = _torch_random.default_generator
    return random.getstate(), generator.get_state(), np.random.get_state()


def _restore(states: tuple) -> None:
    python, torch_state, numpy_state = states
    random.setstate(python)
    _torch_random.default_generator.set_state(torch_state)
    np.random.set_state(numpy_state)


_MASK = 0xFFFFFFFF
_SHIFT = 16


def numpy_seed(base_seed: int, worker: int) -> list:
    """The four 32-bit words torch seeds a worker's numpy with: its worker number and base
    seed hashed into a pool, the pool mixed, then hashed out again (numpy's SeedSequence
    scheme, with its constants)."""
    entropy = [worker, base_seed & _MASK, base_seed >> 32, 0]
    multiplier = [0x43B0D7E5]

    def hashed(value: int) -> int:
        value = (value ^ multiplier[0]) & _MASK
        multiplier[0] = (multiplier[0] * 0x931E8875) & _MASK
        value = (value * multiplier[0]) & _MASK
        return (value ^ (value >> _SHIFT)) & _MASK

    def mixed(x: int, y: int) -> int:
        value = ((0xCA01F9DD * x) & _MASK) - ((0x4973F715 * y) & _MASK)
        value &= _MASK
        return (value ^ (value >> _SHIFT)) & _MASK

    pool = [hashed(word) for word in entropy]
    for source in range(4):
        for target in range(4):
            if source != target:
                pool[target] = mixed(pool[target], hashed(pool[source]))
    out, factor = [], 0x8B51F9DD
    for word in pool:
        word = (word ^ factor) & _MASK
        factor = (factor * 0x58F38DED) & _MASK
        word = (word * factor) & _MASK
        out.append((word ^ (word >> _SHIFT)) & _MASK)
    return out
