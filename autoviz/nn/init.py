"""`torch.nn.init`: fill tensors in place, drawing from autoviz's random generator."""

import math

import numpy as np

from ..engine import creation


def _fill(tensor, values):
    # Initialisation is not part of any graph: write straight into the storage.
    tensor._storage()[...] = values
    return tensor


def _gen():
    return creation._rng["gen"]  # looked up each call: manual_seed replaces the generator


def uniform_(tensor, a=0.0, b=1.0):
    return _fill(tensor, _gen().uniform(a, b, tensor.shape))


def normal_(tensor, mean=0.0, std=1.0):
    return _fill(tensor, _gen().normal(mean, std, tensor.shape))


def constant_(tensor, val):
    return _fill(tensor, val)


def zeros_(tensor):
    return _fill(tensor, 0)


def ones_(tensor):
    return _fill(tensor, 1)


def calculate_gain(nonlinearity, param=None):
    """The recommended scale of weights feeding into `nonlinearity`."""
    if nonlinearity in ("linear", "identity", "sigmoid") or nonlinearity.startswith("conv"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    shape = tensor.shape
    if len(shape) < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _fan(tensor, mode: str) -> int:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """Uniform in ±gain·√(3 / fan): keeps the activations' variance through the layers."""
    bound = math.sqrt(3.0) * calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return normal_(tensor, 0.0, std)


def xavier_uniform_(tensor, gain=1.0):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor, gain=1.0):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)))
