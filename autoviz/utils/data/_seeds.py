"""The random numbers PyTorch's data tools draw, in its order: one seed per pass over a
loader, then a permutation from a generator seeded with it."""

from ...engine import dtypes
from ...engine.creation import zeros
from ...engine.fidelity.random import Generator
from ...engine.sampling import randperm


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
