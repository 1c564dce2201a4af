"""Tensor values as small JSON-friendly previews, taken when an event happens."""

import numpy as np

PREVIEW_LIMIT = 64  # elements kept for a tensor's value preview


def preview(data):
    """A JSON-friendly preview: a float for one element, nested lists when small."""
    if data is None:
        return None
    if isinstance(data, np.generic):  # the common case in scalar programs: no array needed
        return data.item()
    arr = np.asarray(data)
    if arr.ndim == 0:
        return arr.item()
    return arr.tolist() if arr.size <= PREVIEW_LIMIT else None
