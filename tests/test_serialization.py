"""`torch.save` / `torch.load` on autoviz: a weights-only load builds only tensors autoviz can
hold, and says what was wrong with any other (issue 26 item 11)."""

import io
import pickle

import pytest

import autoviz
from autoviz import serialization
from autoviz.engine.tensor import _rebuild


class _Crafted:
    """Pickles as a call of `_rebuild` with any arguments, as a hostile file could hold."""

    def __init__(self, *args) -> None:
        self.args = args

    def __reduce__(self):
        return (_rebuild, self.args)


def crafted_file(*args) -> io.BytesIO:
    return io.BytesIO(serialization.MAGIC + pickle.dumps(_Crafted(*args), protocol=2))


def test_a_saved_tensor_comes_back_whole():
    buffer = io.BytesIO()
    x = autoviz.tensor([[1.5, -2.0]], requires_grad=True)
    autoviz.save({"x": x, "n": autoviz.arange(3)}, buffer)
    buffer.seek(0)
    back = autoviz.load(buffer)
    assert repr(back["x"]) == "tensor([[ 1.5000, -2.0000]], requires_grad=True)"
    assert repr(back["n"]) == "tensor([0, 1, 2])"


@pytest.mark.parametrize(
    "dtype", ["U1", "S4", "complex256", "float128", "datetime64[s]", "m8[ns]", "V4", ">f4"]
)
def test_a_weights_only_load_refuses_a_dtype_autoviz_does_not_have(dtype):
    import numpy as np

    size = np.dtype(dtype).itemsize
    with pytest.raises(pickle.UnpicklingError, match=r"Weights only load failed.*dtype"):
        autoviz.load(crafted_file(b"\0" * size, dtype, (1,), False))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((b"\0" * 4, [("a", "i4")], (1,), False), "dtype"),  # a structured dtype
        ((b"\0" * 4, "O", (1,), False), "dtype"),
        ((b"\0" * 8, "float32", (3,), False), "8 bytes"),
        ((b"\0" * 4, "float32", (-1,), False), "shape"),
        ((b"\0" * 4, "float32", ("1",), False), "shape"),
        (("text", "float32", (1,), False), "bytes"),
        ((b"\0" * 4, "float32", (1,), "yes"), "requires_grad"),
        ((b"\0" * 4, "int32", (1,), True), "floating point"),
    ],
)
def test_a_weights_only_load_refuses_a_tensor_it_cannot_build(args, message):
    with pytest.raises(pickle.UnpicklingError, match=message):
        autoviz.load(crafted_file(*args))


def test_an_unknown_dtype_object_is_refused_at_load():
    class FakeDtype:
        def __reduce__(self):
            from autoviz.engine.dtypes import from_name

            return (from_name, ("complex256",))

    data = io.BytesIO(serialization.MAGIC + pickle.dumps(FakeDtype(), protocol=2))
    with pytest.raises(pickle.UnpicklingError, match="complex256"):
        autoviz.load(data)


@pytest.mark.parametrize("shape", [(), (1,), (0,), (2, 3)])
def test_a_tensor_keeps_its_shape_through_save_pickle_and_deepcopy(shape):
    """A 0-d tensor (BatchNorm's num_batches_tracked, a loss) stays 0-d, as in PyTorch."""
    import copy

    x = autoviz.arange(float(autoviz.Size(shape).numel())).reshape(shape)
    buffer = io.BytesIO()
    autoviz.save({"x": x, "n": autoviz.tensor(3)}, buffer)
    buffer.seek(0)
    loaded = autoviz.load(buffer)
    for y in (loaded["x"], pickle.loads(pickle.dumps(x)), copy.deepcopy(x)):
        assert y.shape == x.shape and y.tolist() == x.tolist()
    assert loaded["n"].shape == () and loaded["n"].item() == 3


def test_a_transposed_tensor_is_saved_in_its_logical_order():
    x = autoviz.arange(6.0).reshape(2, 3).t()
    assert pickle.loads(pickle.dumps(x)).tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]


def test_a_file_asking_for_a_large_bytes_object_is_refused():
    """Protocol 2 writes b"" as a call of bytes(); a call with a size would allocate it."""

    class Huge:
        def __reduce__(self):
            return (bytes, (10**12,))

    file = io.BytesIO(serialization.MAGIC + pickle.dumps(Huge(), protocol=2))
    with pytest.raises(pickle.UnpicklingError, match="without arguments"):
        autoviz.load(file)


def test_a_view_and_its_base_saved_together_share_one_storage_again():
    """As in PyTorch: the loaded view keeps its offset and strides, and writes into its base."""
    t = autoviz.arange(12.0).reshape(3, 4)
    buffer = io.BytesIO()
    autoviz.save({"full": t, "row": t[1, 1:], "column": t[:, 2], "flipped": t.t()}, buffer)
    buffer.seek(0)
    back = autoviz.load(buffer)
    assert back["row"].storage_offset() == 5 and back["column"].stride() == (4,)
    assert back["flipped"].stride() == (1, 4) and back["flipped"].tolist() == t.t().tolist()
    back["column"][0] = -1.0
    assert back["full"][0, 2].item() == -1.0 and back["flipped"][2, 0].item() == -1.0
    assert t[0, 2].item() == 2.0  # the saved tensor is untouched


class _CraftedView:
    """A pickle of a view over a storage of `size` bytes with the given layout."""

    def __init__(self, size, dtype, shape, strides, offset):
        self.args = (size, dtype, shape, strides, offset)

    def __reduce__(self):
        from autoviz.engine.tensor import _rebuild_view

        size, dtype, shape, strides, offset = self.args
        return (_rebuild_view, (_Storage(size), dtype, shape, strides, offset, False))


class _Storage:
    def __init__(self, size):
        self.size = size

    def __reduce__(self):
        from autoviz.engine.storage import rebuild_storage

        return (rebuild_storage, (b"\0" * self.size,))


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ((16, "float32", (5,), (4,), 0), "reaches byte 20 of a storage of 16"),
        ((16, "float32", (2,), (4,), 12), "reaches byte 20"),
        ((16, "float32", (2,), (-4,), 4), "integers >= 0"),
        ((16, "float32", (2, 2), (4,), 0), "one length"),
        ((16, "object", (1,), (8,), 0), "dtype"),
    ],
)
def test_a_weights_only_load_refuses_a_view_outside_its_storage(layout, message):
    data = io.BytesIO(serialization.MAGIC + pickle.dumps(_CraftedView(*layout), protocol=2))
    with pytest.raises(pickle.UnpicklingError, match=message):
        autoviz.load(data)
