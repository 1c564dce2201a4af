"""Record engine events into a Timeline while user code runs under `autoviz.trace()`."""

import linecache
import sys
from pathlib import Path

import numpy as np

from ..engine import AccumulateGrad, Tensor, events
from .captions import write_captions
from .model import Edge, Flow, Node, Source, Step
from .snapshot import preview
from .timeline import PERSISTENT, Timeline

_PACKAGE = str(Path(__file__).resolve().parent.parent)


class trace:
    """`with autoviz.trace() as tl:` records what the block does; tl is the Timeline."""

    def __enter__(self) -> Timeline:
        self.recorder = Recorder(sys._getframe(1))
        events.add_observer(self.recorder)
        return self.recorder.timeline

    def __exit__(self, *exc) -> None:
        events.remove_observer(self.recorder)
        self.recorder.finish()


def _user_frame():
    """The innermost frame outside autoviz: the line of user code that caused an event."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    return frame


class Recorder:
    """An engine observer that turns each event into nodes, edges and a step."""

    def __init__(self, frame) -> None:
        self.timeline = Timeline([], [], [])
        self.block_frame = frame
        self.ids = {}  # id(tensor) or id(grad_fn) -> node id
        self.keep = []  # strong references, so no id() is reused while tracing
        self.unnamed = {}  # node id -> tensor still waiting for a variable name
        self.input_edge = {}  # (op node id, input index) -> edge index
        self.grad_owner = {}  # id(a .grad tensor) -> node id of the tensor it belongs to
        self.arrived = {}  # node id -> gradient summed so far in this backward pass
        self.graph_no = 0
        self.graph_freed = False
        self.frame = frame

    # -- building blocks -------------------------------------------------------------------
    def _locate(self) -> None:
        self.frame = _user_frame() or self.block_frame
        self._name_pending(self.frame)

    def _name_pending(self, frame) -> None:
        """Name tensors after the user's variables as soon as an assignment has happened."""
        if not self.unnamed or frame is None:
            return
        wanted = {id(t): node_id for node_id, t in self.unnamed.items()}
        for name, value in frame.f_locals.items():
            node_id = wanted.get(id(value))
            if node_id is not None and not name.startswith("_"):
                self.timeline.nodes[int(node_id[1:]) - 1].name = name
                del self.unnamed[node_id]
                del wanted[id(value)]

    def _node(self, obj, **fields) -> str:
        node_id = f"n{len(self.timeline.nodes) + 1}"
        fields.setdefault("graph", self.graph_no)
        node = Node(id=node_id, step=len(self.timeline.steps), **fields)
        self.timeline.nodes.append(node)
        if obj is not None:
            self.ids[id(obj)] = node_id
            self.keep.append(obj)
            if isinstance(obj, Tensor) and not node.name:
                self.unnamed[node_id] = obj
        return node_id

    def _tensor_node(self, t: Tensor, kind: str, **flags) -> str:
        data = t._data
        return self._node(
            t,
            kind=kind,
            name=t._name or "",
            shape=tuple(np.shape(data)),
            dtype=str(np.result_type(data)),
            value=preview(data),
            grad=preview(t._grad._data) if t._grad is not None else None,
            requires_grad=t.requires_grad,
            retains_grad=t._retains_grad,
            **flags,
        )

    def _edge(self, source: str, target: str, index: int) -> int:
        edges = self.timeline.edges
        edges.append(Edge(source, target, index, id=f"e{len(edges) + 1}"))
        return len(edges) - 1

    def _step(self, phase: str, kind: str, nodes=(), edges=(), **extra) -> Step:
        frame = self.frame
        source = Source(frame.f_code.co_filename, frame.f_lineno, "") if frame else None
        details = extra.pop("details", {})
        details["graph"] = self.graph_no
        step = Step(len(self.timeline.steps), phase, kind, "", list(nodes), list(edges),
                    source, details=details, **extra)
        self.timeline.steps.append(step)
        return step

    def _input(self, value) -> str:
        """The node of an op input, adding a leaf step for a leaf's first use."""
        if isinstance(value, Tensor):
            known = self.ids.get(id(value))
            if known is not None:
                return known
            if value.requires_grad and value.grad_fn is None:
                node_id = self._tensor_node(value, "leaf", graph=PERSISTENT)
                self._step("forward", "leaf", [node_id])
                return node_id
            kind = "constant" if not value.requires_grad else "intermediate"
            return self._tensor_node(value, kind)
        return self._node(None, kind="constant", name=repr(value), value=value)

    # -- engine events -----------------------------------------------------------------------
    def on_leaf(self, t: Tensor) -> None:
        self._locate()
        node_id = self._tensor_node(t, "leaf", graph=PERSISTENT)
        self._step("forward", "leaf", [node_id])

    def on_op(self, fn, out: Tensor, inputs) -> None:
        self._locate()
        if self.graph_freed:  # the previous graph is gone: a new iteration builds a new one
            self.graph_no += 1
            self.graph_freed = False
        sources = [self._input(v) for v in inputs]
        op_id = self._node(fn, kind="op", name=fn.name(), op=fn.name(), requires_grad=True)
        out_id = self._tensor_node(out, "intermediate")
        edges = []
        for index, src in enumerate(sources):
            edges.append(self._edge(src, op_id, index))
            self.input_edge[(op_id, index)] = edges[-1]
        edges.append(self._edge(op_id, out_id, 0))
        self.ids[("out", id(fn))] = out_id
        self._step("forward", "op", [op_id, out_id], edges)

    def on_backward_start(self, seeds: dict) -> None:
        self._locate()
        self.arrived = {}
        for fn, grad in seeds.items():
            out_id = self.ids.get(("out", id(fn))) or self.ids.get(id(getattr(fn, "variable", None)))
            if out_id is None:
                continue
            self.timeline.nodes[int(out_id[1:]) - 1].kind = "output"
            self._step("backward", "seed", [out_id], details={"grad": preview(grad)})

    def on_node(self, fn, grad, grads) -> None:
        if isinstance(fn, AccumulateGrad):
            return
        op_id = self.ids.get(id(fn))
        if op_id is None:
            return
        local = _local_derivatives(fn, grad, grads)
        flows, reductions = [], []
        for index, ((child, _), g) in enumerate(zip(fn.next_functions, grads, strict=False)):
            edge_index = self.input_edge.get((op_id, index))
            if child is None or g is None or edge_index is None:
                continue
            src = self.timeline.edges[edge_index].source
            total = self.arrived.get(src)
            self.arrived[src] = g if total is None else total + g
            flows.append(
                Flow(edge_index, preview(grad), local[index] if local else None, preview(g),
                     tuple(np.shape(g)), preview(self.arrived[src]) if total is not None else None)
            )
            if np.shape(g) != np.shape(grad) and np.size(g) < np.size(grad):
                reductions.append((src, tuple(np.shape(grad)), tuple(np.shape(g)), edge_index))
        self._step("backward", "backward", [op_id], [f.edge for f in flows], flows=flows,
                   details={"grad": preview(grad)})
        for src, before, after, edge_index in reductions:
            self._step("backward", "reduce", [src], [edge_index],
                       details={"from_shape": list(before), "to_shape": list(after)})

    def on_accumulate(self, t: Tensor, grad) -> None:
        node_id = self.ids.get(id(t))
        if node_id is None:
            return
        self.grad_owner[id(t._grad)] = node_id
        self.keep.append(t._grad)
        total = preview(t._grad._data)
        self._step("backward", "accumulate", [node_id], changes=[[node_id, "grad", total]],
                   details={"incoming": preview(grad), "grad": total})

    def on_backward_end(self, retain_graph: bool) -> None:
        if retain_graph:
            return
        ops = [n.id for n in self.timeline.nodes if n.kind == "op" and n.graph == self.graph_no]
        self._step("backward", "free", ops, changes=[[i, "freed", True] for i in ops])
        self.graph_freed = True

    def on_zero(self, t: Tensor) -> None:
        self._locate()
        owner = self.grad_owner.get(id(t))
        if owner is not None:
            zeros = preview(np.zeros_like(t._data))
            self._step("forward", "zero_grad", [owner], changes=[[owner, "grad", zeros]])

    def on_grad_set(self, t: Tensor, value) -> None:
        self._locate()
        node_id = self.ids.get(id(t))
        if node_id is not None:
            new = preview(value._data) if value is not None else None
            self._step("forward", "set_grad", [node_id], changes=[[node_id, "grad", new]])

    def on_detach(self, src: Tensor, out: Tensor) -> None:
        self._locate()
        source = self.ids.get(id(src))
        if source is None:
            return
        node_id = self._tensor_node(out, "constant", detached=True)
        self._step("forward", "detach", [node_id], details={"from": source})

    def on_untracked(self, out: Tensor, inputs) -> None:
        """An op ran without recording (no_grad): its result is a plain constant."""
        self._locate()
        used = [self.ids[id(v)] for v in inputs if isinstance(v, Tensor) and id(v) in self.ids]
        if used:
            node_id = self._tensor_node(out, "constant", made_in_no_grad=True)
            self._step("forward", "no_grad", [node_id], details={"from": used})

    def on_inplace(self, t: Tensor) -> None:
        self._locate()
        node_id = self.ids.get(id(t))
        if node_id is not None:
            new = preview(t._data)
            self._step("forward", "update", [node_id], changes=[[node_id, "value", new]])

    def on_retain_grad(self, t: Tensor) -> None:
        self._locate()
        node_id = self.ids.get(id(t))
        if node_id is not None:
            self._step("forward", "retain_grad", [node_id],
                       changes=[[node_id, "retains_grad", True]])

    # -- the end of the block ----------------------------------------------------------------
    def finish(self) -> None:
        """Name what is still unnamed, read source lines, mark outputs, write captions."""
        self._name_pending(self.block_frame)
        for number, node_id in enumerate(sorted(self.unnamed, key=lambda i: int(i[1:])), 1):
            self.timeline.nodes[int(node_id[1:]) - 1].name = f"t{number}"
        self.unnamed.clear()
        for step in self.timeline.steps:
            if step.source is not None:
                text = linecache.getline(step.source.file, step.source.line).strip()
                step.source.text = text
        _mark_outputs(self.timeline)
        write_captions(self.timeline)
        self.ids.clear()
        self.keep.clear()
        self.grad_owner.clear()
        self.arrived.clear()
        self.block_frame = self.frame = None


def _local_derivatives(fn, grad, grads):
    """For scalar ops, each input's local derivative: backward run on an upstream of 1."""
    if np.ndim(grad) != 0 or not getattr(fn._forward_cls, "_builtin", False):
        return None
    if any(g is not None and np.ndim(g) != 0 for g in grads):
        return None
    ones = fn._backward(np.ones_like(grad))
    return [preview(g) if g is not None else None for g in ones]


def _mark_outputs(tl: Timeline) -> None:
    """In a graph where backward never ran, tensors no op consumed are its outputs."""
    with_backward = {s.details.get("graph") for s in tl.steps if s.kind == "seed"}
    consumed = {e.source for e in tl.edges}
    for node in tl.nodes:
        if node.kind == "intermediate" and node.id not in consumed:
            if node.graph not in with_backward:
                node.kind = "output"
