"""Recurrent layers: RNN, LSTM and GRU over sequences, and their one-step cells.

The graph is PyTorch's CPU graph: the input projection of a whole sequence computed once
(View, Addmm, View) and unbound into steps, then per step the cell's ops (Addmm for the
hidden projection, the gate chunks, sigmoid, tanh, mul, add), the steps' outputs stacked.
A float32 LSTM without projections is one fused node per layer and direction, as PyTorch's
oneDNN path records it (MkldnnRnnLayerBackward0).
"""

import math
import numbers
import warnings

import numpy as np

from ... import engine as _F
from ...engine.ops.recurrent import (
    MkldnnRnnLayer,
    TransposeInplace,
    gru_step,
    index_select,
    lstm_layer,
    lstm_step,
    rnn_step,
    unsafe_chunk,
)
from ...engine.tensor import make
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import factory_dtype
from .module import Module

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


class RNNBase(Module):
    """The parameters and options every recurrent layer shares, named as PyTorch names
    them: weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0 (and _reverse, weight_hr)."""

    def __init__(
        self,
        mode,
        input_size,
        hidden_size,
        num_layers=1,
        bias=True,
        batch_first=False,
        dropout=0.0,
        bidirectional=False,
        proj_size=0,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        if (
            not isinstance(dropout, numbers.Number)
            or not 0 <= dropout <= 1
            or isinstance(dropout, bool)
        ):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of "
                "an element being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero "
                "dropout expects num_layers greater than 1, but got dropout="
                f"{dropout} and num_layers={num_layers}",
                UserWarning,
                stacklevel=3,
            )
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, proj_size
        directions = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        dt = factory_dtype(dtype)
        self._flat_weights_names = []
        for layer in range(num_layers):
            for direction in range(directions):
                inputs = input_size if layer == 0 else real_hidden * directions
                suffix = "_reverse" if direction == 1 else ""
                shapes = [
                    ("weight_ih", (gate_size, inputs)),
                    ("weight_hh", (gate_size, real_hidden)),
                ]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                for kind, shape in shapes:
                    name = f"{kind}_l{layer}{suffix}"
                    setattr(self, name, Parameter(np.empty(shape, dt)))
                    self._flat_weights_names.append(name)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list:
        per = len(self._flat_weights_names) // (self.num_layers * (2 if self.bidirectional else 1))
        weights = self._flat_weights
        return [weights[i : i + per] for i in range(0, len(weights), per)]

    def flatten_parameters(self) -> None:
        """A no-op: autoviz's weights are always one array each (cuDNN needs this in torch)."""

    def reset_parameters(self) -> None:
        """PyTorch's default: every weight and bias uniform in ±1/√hidden_size."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            text += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if self.batch_first is not False:
            text += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            text += f", bidirectional={self.bidirectional}"
        return text

    # -- running -------------------------------------------------------------------------------
    def _weights(self, index: int) -> dict:
        layer, direction = divmod(index, 2 if self.bidirectional else 1)
        suffix = f"_l{layer}" + ("_reverse" if direction else "")
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")
        return {n: getattr(self, n + suffix, None) for n in names}

    def _states(self, batch: int, dtype) -> tuple:
        directions = 2 if self.bidirectional else 1
        real = self.proj_size if self.proj_size > 0 else self.hidden_size
        h = make(np.zeros((self.num_layers * directions, batch, real), dtype))
        if self.mode != "LSTM":
            return h, None
        return h, make(np.zeros((self.num_layers * directions, batch, self.hidden_size), dtype))

    def _check_input(self, input, batched_dims=3) -> None:
        weight = self.weight_ih_l0
        if input.dtype != weight.dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                f"Convert input: input.to({weight.dtype}), or convert model: "
                f"model.to({input.dtype})"
            )
        if input.shape[-1] != self.input_size:
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                f"got {input.shape[-1]}"
            )

    def _check_hidden(self, hx, expected, name="Expected hidden size") -> None:
        if tuple(hx.shape) != tuple(expected):
            raise RuntimeError(f"{name} {tuple(expected)}, got {list(hx.shape)}")

    def _expected_hidden(self, batch: int, cell=False) -> tuple:
        directions = 2 if self.bidirectional else 1
        size = self.hidden_size if cell or self.proj_size == 0 else self.proj_size
        return (self.num_layers * directions, batch, size)

    def _run(self, input, hx, cx):
        """The stacked layers over time-major input (T, B, I): output, h_n (and c_n)."""
        fused = self.mode == "LSTM" and self.proj_size == 0 and input._data.dtype == np.float32
        directions = 2 if self.bidirectional else 1
        h_states = None if fused else _F.unbind(hx, 0)
        c_states = None if fused or cx is None else _F.unbind(cx, 0)
        x = input
        final_h, final_c = [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                w = self._weights(index)
                if fused:
                    out, h, c = self._fused_layer(x, w, hx[index], cx[index], direction == 1)
                else:
                    c0 = c_states[index] if c_states is not None else None
                    out, h, c = self._layer(x, w, h_states[index], c0, direction == 1)
                outputs.append(out)
                final_h.append(h)
                final_c.append(c)
            output = outputs[0] if directions == 1 else _F.cat(outputs, outputs[0].ndim - 1)
            last = layer == self.num_layers - 1
            x = (
                F.dropout(output, self.dropout, True)
                if self.dropout and self.training and not last
                else output
            )
        h_n = _F.stack(final_h, 0)
        c_n = _F.stack(final_c, 0) if self.mode == "LSTM" else None
        return x, h_n, c_n

    def _fused_layer(self, x, w, h0, c0, reverse):
        """One layer and direction of a float32 LSTM: one node of three outputs, as oneDNN's."""
        data = [
            t._data if t is not None else None
            for t in (x, w["weight_ih"], w["weight_hh"], w["bias_ih"], w["bias_hh"], h0, c0)
        ]
        computed = lstm_layer(*data, reverse=reverse)
        inputs = (x, w["weight_ih"], w["weight_hh"], w["bias_ih"], w["bias_hh"], h0, c0)
        return MkldnnRnnLayer.apply(*inputs, computed=computed, reverse=reverse)

    def _layer(self, x, w, h, c, reverse):
        """One layer and direction step by step: the input projected once, then the cell."""
        pre = _F.unbind(F.linear(x, w["weight_ih"], w["bias_ih"]), 0)
        steps = range(len(pre) - 1, -1, -1) if reverse else range(len(pre))
        outputs = [None] * len(pre)
        for t in steps:
            if self.mode == "LSTM":
                h, c = lstm_step(pre[t], h, c, w["weight_hh"], w["bias_hh"], w["weight_hr"])
            elif self.mode == "GRU":
                h = gru_step(pre[t], h, w["weight_hh"], w["bias_hh"])
            else:
                act = "tanh" if self.mode == "RNN_TANH" else "relu"
                h = rnn_step(pre[t], h, w["weight_hh"], w["bias_hh"], act)
            outputs[t] = h
        return _F.stack(outputs, 0), h, c

    def _forward(self, input, hx):
        from ..utils.rnn import PackedSequence

        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        name = type(self).__name__
        if input.ndim not in (2, 3):
            word = " tensor" if name == "RNN" else ""  # as torch: RNN says "4D tensor", LSTM "4D"
            raise ValueError(
                f"{name}: Expected input to be 2D or 3D, got {input.ndim}D{word} instead"
            )
        batched = input.ndim == 3
        batch_dim = 0 if self.batch_first else 1
        is_lstm = self.mode == "LSTM"
        if not batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                hx = tuple(h.unsqueeze(1) for h in hx) if is_lstm else self._unbatched_hx(hx)
        batch = input.shape[batch_dim]
        self._check_input(input)
        if hx is None:
            h0, c0 = self._states(batch, input._data.dtype)
        elif is_lstm:
            h0, c0 = hx
            self._check_hidden(h0, self._expected_hidden(batch), "Expected hidden[0] size")
            self._check_hidden(
                c0, self._expected_hidden(batch, cell=True), "Expected hidden[1] size"
            )
        else:
            h0, c0 = hx, None
            self._check_hidden(h0, self._expected_hidden(batch))
        x = input.transpose(0, 1) if self.batch_first else input
        output, h_n, c_n = self._run(x, h0, c0)
        if self.batch_first:
            fused = (
                output.grad_fn is not None
                and type(output.grad_fn).__name__ == "MkldnnRnnLayerBackward0"
            )
            output = (
                output.transpose(0, 1) if fused else TransposeInplace.apply(output, dim0=0, dim1=1)
            )
        if not batched:
            output = output.squeeze(batch_dim)
            h_n = h_n.squeeze(1)
            c_n = c_n.squeeze(1) if c_n is not None else None
        return output, ((h_n, c_n) if is_lstm else h_n)

    def _unbatched_hx(self, hx):
        if hx.ndim != 2:
            raise RuntimeError(
                f"For unbatched 2-D input, hx should also be 2-D but got {hx.ndim}-D tensor"
            )
        return hx.unsqueeze(1)

    def _forward_packed(self, packed, hx):
        """A PackedSequence: the steps' batches shrink as sequences end."""
        from ..utils.rnn import PackedSequence

        sizes = [int(n) for n in packed.batch_sizes._data]
        batch = sizes[0]
        is_lstm = self.mode == "LSTM"
        if hx is None:
            h0, c0 = self._states(batch, packed.data._data.dtype)
        else:
            h0, c0 = hx if is_lstm else (hx, None)
            if packed.sorted_indices is not None:
                order = packed.sorted_indices
                h0 = index_select(h0, 1, order)
                c0 = index_select(c0, 1, order) if c0 is not None else None
        data, h_n, c_n = self._run_packed(packed.data, sizes, h0, c0)
        if packed.unsorted_indices is not None:
            h_n = index_select(h_n, 1, packed.unsorted_indices)
            c_n = index_select(c_n, 1, packed.unsorted_indices) if c_n is not None else None
        out = PackedSequence(
            data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices
        )
        return out, ((h_n, c_n) if is_lstm else h_n)

    def _run_packed(self, data, sizes, h0, c0):
        directions = 2 if self.bidirectional else 1
        h_states = _F.unbind(h0, 0)
        c_states = _F.unbind(c0, 0) if c0 is not None else None
        x = data
        final_h, final_c = [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                w = self._weights(index)
                c = c_states[index] if c_states is not None else None
                out, h, c = self._packed_layer(x, sizes, w, h_states[index], c, direction == 1)
                outputs.append(out)
                final_h.append(h)
                final_c.append(c)
            output = outputs[0] if directions == 1 else _F.cat(outputs, 1)
            last = layer == self.num_layers - 1
            x = (
                F.dropout(output, self.dropout, True)
                if self.dropout and self.training and not last
                else output
            )
        h_n = _F.stack(final_h, 0)
        return x, h_n, (_F.stack(final_c, 0) if self.mode == "LSTM" else None)

    def _packed_layer(self, data, sizes, w, h_init, c_init, reverse):
        """One layer and direction over packed steps: the batch shrinks as sequences end
        (their last states kept aside), or, reversed, grows from the initial states."""
        starts = np.cumsum([0, *sizes[:-1]])
        steps = range(len(sizes) - 1, -1, -1) if reverse else range(len(sizes))
        outputs = [None] * len(sizes)
        ended_h, ended_c = [], []
        current = sizes[-1] if reverse else sizes[0]
        h = h_init[:current]
        c = c_init[:current] if c_init is not None else None
        for t in steps:
            n = sizes[t]
            if n < current:  # sequences that ended keep their last state
                ended_h.insert(0, h[n:current])
                ended_c.insert(0, c[n:current] if c is not None else None)
                h, c = h[:n], (c[:n] if c is not None else None)
            elif n > current:  # reversed: longer sequences start from their initial state
                h = _F.cat([h, h_init[current:n]], 0)
                c = _F.cat([c, c_init[current:n]], 0) if c is not None else None
            current = n
            step = F.linear(data[int(starts[t]) : int(starts[t]) + n], w["weight_ih"], w["bias_ih"])
            if self.mode == "LSTM":
                h, c = lstm_step(step, h, c, w["weight_hh"], w["bias_hh"], w["weight_hr"])
            elif self.mode == "GRU":
                h = gru_step(step, h, w["weight_hh"], w["bias_hh"])
            else:
                act = "tanh" if self.mode == "RNN_TANH" else "relu"
                h = rnn_step(step, h, w["weight_hh"], w["bias_hh"], act)
            outputs[t] = h
        h_last = _F.cat([h, *ended_h], 0) if ended_h else h
        c_last = None
        if c is not None:
            c_last = _F.cat([c, *ended_c], 0) if ended_c else c
        return _F.cat(outputs, 0), h_last, c_last


class RNN(RNNBase):
    """h_t = tanh(x_t W_ihᵀ + b_ih + h_(t-1) W_hhᵀ + b_hh) (or relu) over a sequence."""

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        args = list(args)
        nonlinearity = kwargs.pop("nonlinearity", args.pop(3) if len(args) > 3 else "tanh")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(
                f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        self.nonlinearity = nonlinearity
        mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward(input, hx)


class LSTM(RNNBase):
    """The long short-term memory layer: input, forget, cell and output gates per step."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward(input, hx)


class GRU(RNNBase):
    """The gated recurrent unit layer: reset and update gates per step."""

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward(input, hx)


# -- cells ----------------------------------------------------------------------------------------
class RNNCellBase(Module):
    """The weights of one recurrent step: weight_ih, weight_hh, bias_ih, bias_hh."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        dt = factory_dtype(dtype)
        self.weight_ih = Parameter(np.empty((num_chunks * hidden_size, input_size), dt))
        self.weight_hh = Parameter(np.empty((num_chunks * hidden_size, hidden_size), dt))
        if bias:
            self.bias_ih = Parameter(np.empty(num_chunks * hidden_size, dt))
            self.bias_hh = Parameter(np.empty(num_chunks * hidden_size, dt))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            text += f", nonlinearity={self.nonlinearity}"
        return text

    def _batched(self, input, hx):
        name = type(self).__name__
        if input.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        if hx is not None:
            for h in hx if isinstance(hx, tuple) else (hx,):
                if h.ndim not in (1, 2):
                    raise ValueError(
                        f"{name}: Expected hidden to be 1D or 2D, got {h.ndim}D instead"
                    )
        if input.shape[-1] != self.input_size:
            raise RuntimeError(
                f"input has inconsistent input_size: got {input.shape[-1]} expected "
                f"{self.input_size}"
            )
        return input.ndim == 2

    def _zeros(self, input):
        return make(np.zeros((input.shape[0], self.hidden_size), input._data.dtype))


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = tanh(x W_ihᵀ + b_ih + h W_hhᵀ + b_hh)."""

    def __init__(
        self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None
    ):
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        batched = self._batched(input, hx)
        if not batched:
            input = input.unsqueeze(0)
            hx = hx.unsqueeze(0) if hx is not None else None
        h = hx if hx is not None else self._zeros(input)
        hidden = F.linear(h, self.weight_hh, self.bias_hh)
        total = hidden + F.linear(input, self.weight_ih, self.bias_ih)
        out = total.tanh() if self.nonlinearity == "tanh" else total.relu()
        return out if batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: (h', c') from (x, (h, c))."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input, hx=None):
        batched = self._batched(input, hx)
        if not batched:
            input = input.unsqueeze(0)
            hx = tuple(h.unsqueeze(0) for h in hx) if hx is not None else None
        if hx is None:
            hx = (self._zeros(input), self._zeros(input))
        h, c = hx
        h_next, c_next = self._step(input, F.linear(h, self.weight_hh, self.bias_hh), c)
        if not batched:
            return h_next.squeeze(0), c_next.squeeze(0)
        return h_next, c_next

    def _step(self, input, hidden, c):
        gates = hidden + F.linear(input, self.weight_ih, self.bias_ih)
        i, f, g, o = unsafe_chunk(gates, 4)
        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
        c_next = f * c + i * g
        return o * c_next.tanh(), c_next


class GRUCell(RNNCellBase):
    """One GRU step: h' from (x, h)."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input, hx=None):
        batched = self._batched(input, hx)
        if not batched:
            input = input.unsqueeze(0)
            hx = hx.unsqueeze(0) if hx is not None else None
        h = hx if hx is not None else self._zeros(input)
        pre = F.linear(input, self.weight_ih, self.bias_ih)
        out = gru_step(pre, h, self.weight_hh, self.bias_hh)
        return out if batched else out.squeeze(0)
