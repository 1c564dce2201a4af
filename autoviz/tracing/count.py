"""How many steps a recorded log makes, told without building them: `len(tl)` of a timeline
not built yet costs one light pass over its log, not the build of every graph.

Counter follows builder.Builder record by record, keeping of each node only which graph it is
in: what decides whether a record makes a step (a leaf at its first use, an input known in the
graph being built, a broadcast input's reduction, a backward that frees its graph). A built
timeline checks its count against its steps (Recorded.build), so the two cannot drift apart
unnoticed; tests make a difference an error.
"""

import os

import numpy as np

from .builder import _reduces, _shape
from .model import PERSISTENT
from .symbols import plain

CHECK = "AUTOVIZ_CHECK_COUNT"  # set (tests): a built timeline whose count differs raises


class Counter:
    """Replays records as the builder does, counting steps; `view` as the builder's."""

    def __init__(self, view) -> None:
        self.view, self.key = view, view.key
        self.tensor_types, self.acc_types = view.tensor_types, view.accumulate_types
        self.graph = {}  # key of a node (as builder.ids) -> its graph
        self.missing = {}  # id(grad_fn) -> the input indices its op node has no edge for
        self.owned = set()  # keys of .grad tensors whose owner has a node
        self.leaf_data = set()  # view.storage of each leaf
        self.graph_no, self.freed, self.steps = 0, False, 0

    def count(self, records) -> int:
        for record in records:
            getattr(self, record[0])(*record[1:])
        return self.steps

    # -- what the builder's building blocks leave behind ---------------------------------------
    def _known(self, t) -> bool:
        return self.graph.get(self.key(t), None) in (self.graph_no, PERSISTENT)

    def _next_graph(self) -> None:
        if self.freed:
            self.graph_no, self.freed = self.graph_no + 1, False

    def _leaf(self, t) -> None:
        self.graph[self.key(t)] = PERSISTENT
        self.leaf_data.add(self.view.storage(t))

    def _input(self, value) -> None:
        if isinstance(value, self.tensor_types):
            if self._known(value):
                return
            if value.requires_grad and value.grad_fn is None:
                self._leaf(value)
                self.steps += 1
            else:
                self.graph[self.key(value)] = self.graph_no
        elif isinstance(value, np.ndarray):
            self.graph[("data", id(value))] = self.graph_no

    # -- forward --------------------------------------------------------------------------------
    def leaf(self, src, t, value) -> None:
        self._leaf(t)
        self.steps += 1

    def constant(self, src, t, value) -> None:
        self.graph[self.key(t)] = self.graph_no

    def op(self, src, fn, out, inputs, constants, value) -> None:
        # The hot path, with _input written out for tensors: one op per record of a long loop.
        if self.freed:
            self._next_graph()
        graph, key, now, tensors = self.graph, self.key, self.graph_no, self.tensor_types
        arguments = self.view.arguments(fn)
        missing = None  # the indices without an input (None: every one has a node)
        for index, v in enumerate(inputs):
            if v is None:
                missing = (missing or set()) | {index}
            elif isinstance(v, tensors):
                where = graph.get(key(v), None)
                if where != now and where != PERSISTENT:
                    self._input(v)
            else:
                self._input(v)
        for v in arguments:
            self._input(v)
        self.missing[id(fn)] = missing
        graph[id(fn)] = graph[("out", id(fn))] = graph[key(out)] = now
        if out.grad_fn is not fn:  # an autoviz Output of a node with several: a seed's key
            graph[("out", id(out.grad_fn))] = now
        self.steps += 1

    def detach(self, src, source, out, value) -> None:
        if self._known(source):
            self.graph[self.key(out)] = self.graph_no
            self.steps += 1

    def untracked(self, src, out, inputs, value, grad_enabled=False) -> None:
        if any(isinstance(v, self.tensor_types) and self._known(v) for v in inputs):
            self.graph[self.key(out)] = self.graph_no
            self.steps += 1

    def rebind(self, src, t, out) -> None:
        found = self.graph.get(self.key(out))
        if found is not None:
            self.graph[self.key(t)] = found

    def retain(self, src, t) -> None:
        self.steps += self._known(t)

    # -- backward -------------------------------------------------------------------------------
    def seed(self, src, seeds) -> None:
        for fn, _ in seeds:
            key = ("out", id(fn)) if not isinstance(fn, self.acc_types) else self.key(fn.variable)
            self.steps += key in self.graph

    def node(self, src, fn, grad_data, grads_data, local, full=None) -> None:
        if id(fn) not in self.graph or isinstance(fn, self.acc_types):
            return
        self.steps += 1
        if isinstance(grad_data, tuple):
            return  # a node of several outputs: no broadcast op, nothing to sum back
        grad_shape = _shape(grad_data)
        if not grad_shape:  # a scalar's gradient is no broadcast input's: nothing to sum back
            return
        name, missing = plain(fn.name()), self.missing.get(id(fn)) or ()
        for index, ((child, _), g) in enumerate(zip(fn.next_functions, grads_data, strict=False)):
            if child is not None and g is not None and index not in missing:
                self.steps += _reduces(name, index, _shape(g), grad_shape)

    def accumulate(self, src, t, grad_tensor, incoming, total, shared=()) -> None:
        if self.key(t) in self.graph:
            self.owned.add(self.key(grad_tensor))
            self.steps += 1

    def end(self, src, retain_graph) -> None:
        if not retain_graph:
            self.steps += 1
            self.freed = True

    # -- updates --------------------------------------------------------------------------------
    def update(self, src, t, value, rule) -> None:
        self.steps += self._known(t)

    def zero_grad(self, src, tensors, values, set_to_none) -> None:
        self.steps += any(self._known(t) for t in tensors)

    def zero(self, src, t, value) -> None:
        if self.key(t) in self.owned:
            self.steps += 1
        else:
            self.inplace(src, t, value)

    def set_grad(self, src, t, value, new) -> None:
        if self._known(t):
            if value is not None:
                self.owned.add(self.key(value))
            self.steps += 1

    def inplace(self, src, t, value) -> None:
        self.steps += self._known(t) or self.view.storage(t) in self.leaf_data

    # -- the program raised ---------------------------------------------------------------------
    def error(self, src, node, name, tensors, modules, kind, message) -> None:
        if (node is not None and id(node) in self.graph) or name is None:
            self.steps += 1
            return
        self._next_graph()
        for t in tensors:
            self._input(t)
        self.steps += 1


def checking() -> bool:
    """Whether a built timeline whose count differs from its steps raises (tests)."""
    return bool(os.environ.get(CHECK))
