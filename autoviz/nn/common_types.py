"""The type aliases of torch.nn's signatures (sizes given as one int or a tuple)."""

from typing import TypeVar, Union

from ..engine.tensor import Tensor

T = TypeVar("T")
_scalar_or_tuple_any_t = Union[T, tuple[T, ...]]  # noqa: UP007 (a generic alias)
_scalar_or_tuple_1_t = Union[T, tuple[T]]  # noqa: UP007
_scalar_or_tuple_2_t = Union[T, tuple[T, T]]  # noqa: UP007
_scalar_or_tuple_3_t = Union[T, tuple[T, T, T]]  # noqa: UP007
_size_any_t = _scalar_or_tuple_any_t[int]
_size_1_t = _scalar_or_tuple_1_t[int]
_size_2_t = _scalar_or_tuple_2_t[int]
_size_3_t = _scalar_or_tuple_3_t[int]
_ratio_any_t = _scalar_or_tuple_any_t[float]
_tensor_list_t = _scalar_or_tuple_any_t[Tensor]
_maybe_indices_t = _scalar_or_tuple_any_t[Tensor]
