"""Build a Timeline's nodes, edges and steps from the recorder's event log."""

import linecache

import numpy as np

from .captions import write_captions
from .model import Edge, Flow, Node, Source, Step, node_at
from .modules import ModuleNames
from .preview import preview
from .symbols import ELEMENTWISE
from .timeline import PERSISTENT
from .view import EngineView


def build(tl, log: list, names: dict, modules: ModuleNames | None = None, view=None) -> None:
    """Fill `tl` with what the logged events did, then write the captions.

    `view` reads the logged tensors and nodes: autoviz's own (with `modules`), or torch's
    from the bridge.
    """
    builder = _Builder(tl, names, view or EngineView(modules))
    for record in log:
        getattr(builder, record[0])(*record[1:])
    builder.finish()


class _Builder:
    """Replays the log: each record adds nodes, edges and one or more steps."""

    def __init__(self, tl, names: dict, view) -> None:
        self.tl, self.names = _Parts(tl._nodes, tl._edges, tl._steps), names
        self.view = view
        self.tensor_types, self.acc_types = view.tensor_types, view.accumulate_types
        self.ids = {}  # id(tensor), id(grad_fn) or ("out", id(grad_fn)) -> node id
        self.input_edge = {}  # (op node id, input index) -> edge index
        self.grad_owner = {}  # id(a .grad tensor) -> node id of its owner
        self.arrived = {}  # node id -> gradient summed so far in this backward pass
        self.graph_no, self.graph_freed = 0, False
        self.src = None
        self.lines = {}

    # -- building blocks -------------------------------------------------------------------
    def _node(self, key, **fields) -> str:
        node_id = f"n{len(self.tl.nodes) + 1}"
        fields.setdefault("graph", self.graph_no)
        self.tl.nodes.append(Node(id=node_id, step=len(self.tl.steps), **fields))
        if key is not None:
            self.ids[key] = node_id
        return node_id

    def _tensor(self, t, kind: str, value, **flags) -> str:
        view = self.view
        return self._node(
            id(t),
            kind=kind,
            name=view.given_name(t) or self.names.get(id(t)) or view.param_name(t) or "",
            shape=view.shape(t),
            dtype=view.dtype(t),
            value=value,
            requires_grad=t.requires_grad,
            **flags,
        )

    def _shape_value(self, node_id: str) -> tuple:
        node = self._by_id(node_id)
        return node.shape, node.value

    def _by_id(self, node_id: str) -> Node:
        return node_at(self.tl.nodes, node_id)

    def _edge(self, source: str, target: str, index: int) -> int:
        edges = self.tl.edges
        edges.append(Edge(source, target, index, id=f"e{len(edges) + 1}"))
        return len(edges) - 1

    def _step(self, phase, kind, src, nodes=(), edges=(), **extra) -> Step:
        if src is not None:
            self.src = src
        source = Source(self.src[0], self.src[1], self._line(self.src)) if self.src else None
        details = extra.pop("details", {})
        details["graph"] = self.graph_no
        step = Step(
            len(self.tl.steps),
            phase,
            kind,
            "",
            list(nodes),
            list(edges),
            source,
            details=details,
            **extra,
        )
        self.tl.steps.append(step)
        return step

    def _line(self, src) -> str:
        if src not in self.lines:
            self.lines[src] = linecache.getline(*src).strip()
        return self.lines[src]

    def _input(self, value, constant_preview, src) -> str:
        """The node of an op input; a leaf's first use is a step of its own."""
        if isinstance(value, self.tensor_types):
            known = self.ids.get(id(value))
            if known is not None:
                return known
            if value.requires_grad and value.grad_fn is None:
                node_id = self._leaf(value, constant_preview)
                self._step("forward", "leaf", src, [node_id])
                return node_id
            kind = "intermediate" if value.requires_grad else "constant"
            return self._tensor(value, kind, constant_preview)
        return self._node(None, kind="constant", name=repr(value), value=value)

    # -- one method per record ---------------------------------------------------------------
    def _leaf(self, t, value) -> str:
        """A leaf node; a parameter belongs to the module that owns it."""
        module = self.view.param_module(t)
        return self._tensor(t, "leaf", value, graph=PERSISTENT, module=module)

    def leaf(self, src, t, value) -> None:
        node_id = self._leaf(t, value)
        self._step("forward", "leaf", src, [node_id])

    def op(self, src, fn, out, inputs, constants, value) -> None:
        if self.graph_freed:  # the previous graph is gone: a new iteration builds a new one
            self.graph_no, self.graph_freed = self.graph_no + 1, False
        # An input of None has no node: torch's next_functions has (None, 0) for an input
        # that needs no gradient, where the bridge cannot tell which argument it was.
        sources = [
            None if v is None else self._input(v, c, src)
            for v, c in zip(inputs, constants, strict=True)
        ]
        module = self.view.op_module(fn)
        for v, source in zip(inputs, sources, strict=True):
            if source is not None and not isinstance(v, self.tensor_types):
                # a number written in the module's code
                self._by_id(source).module = [list(p) for p in module]
        op_id = self._node(
            id(fn), kind="op", name=fn.name(), op=fn.name(), requires_grad=True, module=module
        )
        out_id = self._tensor(out, "intermediate", value, module=[list(p) for p in module])
        known = {i: self._shape_value(source) for i, source in enumerate(sources) if source}
        self.tl.nodes[-2].saved = self.view.saved(fn, known, self._shape_value(out_id))
        edges = []
        for index, source in enumerate(sources):
            if source is None:
                continue
            edges.append(self._edge(source, op_id, index))
            self.input_edge[(op_id, index)] = edges[-1]
        edges.append(self._edge(op_id, out_id, 0))
        self.ids[("out", id(fn))] = out_id
        self._step("forward", "op", src, [op_id, out_id], edges)

    def seed(self, src, seeds) -> None:
        self.arrived = {}
        for fn, grad in seeds:
            key = ("out", id(fn)) if not isinstance(fn, self.acc_types) else id(fn.variable)
            out_id = self.ids.get(key)
            if out_id is not None:
                self._by_id(out_id).kind = "output"
                self._step("backward", "seed", src, [out_id], details={"grad": grad})

    def node(self, src, fn, grad_data, grads_data, local) -> None:
        op_id = self.ids.get(id(fn))
        if op_id is None or isinstance(fn, self.acc_types):
            return
        grad, grad_shape = preview(grad_data), np.shape(grad_data)
        grads = [None if g is None else (preview(g), np.shape(g)) for g in grads_data]
        locals_ = local or _divide(fn, grad, grads)
        flows, reductions = [], []
        for index, ((child, _), g) in enumerate(zip(fn.next_functions, grads, strict=False)):
            edge_index = self.input_edge.get((op_id, index))
            if child is None or g is None or edge_index is None:
                continue
            contribution, shape = g
            source = self.tl.edges[edge_index].source
            total = self._arrive(source, contribution)
            local_i = locals_[index] if locals_ else None
            flows.append(Flow(edge_index, grad, local_i, contribution, tuple(shape), total))
            broadcast = fn.name() in ELEMENTWISE and tuple(shape) != tuple(grad_shape)
            if broadcast and np.prod(shape) < np.prod(grad_shape):
                reductions.append((source, list(grad_shape), list(shape), edge_index))
        self._step(
            "backward",
            "backward",
            src,
            [op_id],
            [f.edge for f in flows],
            flows=flows,
            details={"grad": grad},
        )
        for source, before, after, edge_index in reductions:
            self._step(
                "backward",
                "reduce",
                src,
                [source],
                [edge_index],
                details={"from_shape": before, "to_shape": after},
            )

    def _arrive(self, node_id: str, contribution):
        """The running sum at a node that fans out (None for its first contribution)."""
        before = self.arrived.get(node_id)
        if contribution is None:
            return None
        if before is None:
            self.arrived[node_id] = contribution
            return None
        total = (np.asarray(before) + np.asarray(contribution)).tolist()
        self.arrived[node_id] = total
        return total

    def accumulate(self, src, t, grad_tensor, incoming, total) -> None:
        node_id = self.ids.get(id(t))
        if node_id is None:
            return
        incoming = preview(incoming)
        self.grad_owner[id(grad_tensor)] = node_id
        self._step(
            "backward",
            "accumulate",
            src,
            [node_id],
            changes=[[node_id, "grad", total]],
            details={"incoming": incoming, "grad": total},
        )

    def end(self, src, retain_graph) -> None:
        if retain_graph:
            return
        ops = [n.id for n in self.tl.nodes if n.kind == "op" and n.graph == self.graph_no]
        self._step("backward", "free", src, ops, changes=[[i, "freed", True] for i in ops])
        self.graph_freed = True

    def zero(self, src, t, value) -> None:
        owner = self.grad_owner.get(id(t))
        if owner is not None:
            self._step("forward", "zero_grad", src, [owner], changes=[[owner, "grad", value]])
        elif id(t) in self.ids:
            node_id = self.ids[id(t)]
            self._step("forward", "update", src, [node_id], changes=[[node_id, "value", value]])

    def set_grad(self, src, t, value, new) -> None:
        node_id = self.ids.get(id(t))
        if node_id is not None:
            if value is not None:
                self.grad_owner[id(value)] = node_id
            self._step("forward", "set_grad", src, [node_id], changes=[[node_id, "grad", new]])

    def detach(self, src, source, out, value) -> None:
        source_id = self.ids.get(id(source))
        if source_id is not None:
            node_id = self._tensor(out, "constant", value, detached=True)
            self._step("forward", "detach", src, [node_id], details={"from": source_id})

    def untracked(self, src, out, inputs, value) -> None:
        tensors = self.tensor_types
        used = [self.ids[id(v)] for v in inputs if isinstance(v, tensors) and id(v) in self.ids]
        if used:
            node_id = self._tensor(out, "constant", value, made_in_no_grad=True)
            self._step("forward", "no_grad", src, [node_id], details={"from": used})

    def inplace(self, src, t, value) -> None:
        node_id = self.ids.get(id(t))
        if node_id is not None:
            self._step("forward", "update", src, [node_id], changes=[[node_id, "value", value]])

    def rebind(self, src, t, out) -> None:
        """An in-place op on a tensor in the graph (`y.mul_(3)`): from now on `t` is the op's
        result, which is named after `t` as PyTorch keeps the name on the tensor."""
        new, old = self.ids.get(id(out)), self.ids.get(id(t))
        if new is None:
            return
        if old is not None:
            result = self._by_id(new)
            result.name = result.name or self._by_id(old).name
        self.ids[id(t)] = new

    def retain(self, src, t) -> None:
        node_id = self.ids.get(id(t))
        if node_id is not None:
            self._step(
                "forward", "retain_grad", src, [node_id], changes=[[node_id, "retains_grad", True]]
            )

    def finish(self) -> None:
        unnamed = [n for n in self.tl.nodes if n.kind != "op" and not n.name]
        for number, node in enumerate(unnamed, 1):
            node.name = f"t{number}"
        _mark_outputs(self.tl)
        write_captions(self.tl)


class _Parts:
    """The lists being filled, without going through the Timeline's lazy properties."""

    def __init__(self, nodes, edges, steps) -> None:
        self.nodes, self.edges, self.steps = nodes, edges, steps


def _divide(fn, grad, grads):
    """Local derivatives of an elementwise op as contribution / upstream (upstream has no 0)."""
    if fn.name() not in ELEMENTWISE or grad is None:
        return None
    up = np.asarray(grad, dtype=float)
    if np.any(up == 0):
        return None
    result = []
    for g in grads:
        if g is None or g[0] is None or np.shape(g[0]) != up.shape:
            result.append(None)
        else:
            result.append((np.asarray(g[0], dtype=float) / up).tolist())
    return result


def _mark_outputs(tl) -> None:
    """In a graph where backward never ran, tensors no op consumed are its outputs."""
    with_backward = {s.details.get("graph") for s in tl.steps if s.kind == "seed"}
    consumed = {e.source for e in tl.edges}
    for node in tl.nodes:
        unused = node.kind == "intermediate" and node.id not in consumed
        if unused and node.graph not in with_backward:
            node.kind = "output"
