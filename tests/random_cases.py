"""Comparing a random case in torch and in autoviz: the same values bit for bit after the same
seed, and the generators in the same state afterwards."""

import numpy as np
import torch

import autoviz


def values(x) -> list:
    """Tensors (or lists/tuples of them, or numbers) as (dtype name, bytes) pairs."""
    if isinstance(x, (list, tuple)):
        return [v for item in x for v in values(item)]
    if isinstance(x, (int, float, bool)):
        return [("py", repr(x))]
    data = x.detach().numpy() if isinstance(x, torch.Tensor) else np.asarray(x._data)
    return [(str(x.dtype), data.shape, np.ascontiguousarray(data).tobytes())]


def state(lib) -> bytes:
    return bytes(np.asarray(lib.get_rng_state().numpy()))


def same(case, seed=0) -> None:
    """The case gives torch's values and leaves the generator as torch leaves it."""
    torch.manual_seed(seed)
    expected = values(case(torch))
    torch_state = state(torch)
    autoviz.manual_seed(seed)
    got = values(case(autoviz))
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g[:2] == e[:2]  # dtype and shape
        if g != e:
            a = np.frombuffer(g[2], dtype=np.uint8)
            b = np.frombuffer(e[2], dtype=np.uint8)
            raise AssertionError(f"{e[0]} {e[1]}: {np.count_nonzero(a != b)} bytes differ")
    assert state(autoviz) == torch_state, "the generators' states differ afterwards"
