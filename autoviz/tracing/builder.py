"""Nodes, edges and steps from a log of records: one builder for timelines and for draw().

A traced program's records come from the recorder (autoviz's engine events) or the bridge
(torch); draw() walks a tensor's graph and hands the same records over (walk.py), so every
graph, drawn or stepped, is made by this one code path.
"""

import linecache
import math
import warnings

import numpy as np

from . import source
from .captions import write_captions
from .labels import label_tensors
from .model import Edge, Flow, Node, Source, Step, node_at
from .modules import ModuleNames
from .preview import RESHAPES, Summary, derived, preview
from .symbols import ELEMENTWISE, plain
from .timeline import PERSISTENT
from .view import EngineView, dtype_name

# A node an op's input could not be found for: torch keeps no trace of some constants (the 1
# of `y + 1`); drawn as a constant of unknown value.
UNKNOWN = object()
_NOTHING = object()  # no gradient has arrived at a node yet in this backward pass


class Recorded:
    """A traced block's log until a view needs its steps: `count()` tells how many there will
    be in one light pass (tracing/count.py), `build(tl)` makes them.

    `records` gives the log as the builder reads it (the engine's recorder resolves its own
    first, once); `view` reads the logged tensors and nodes: autoviz's own, or torch's.
    """

    def __init__(self, records, names: dict, view) -> None:
        self._records, self._log, self.names, self.view = records, None, names, view
        self.counted = None
        self.part = None  # a Timeline of the log's first graphs, for tl[k] (see prefix)

    def log(self) -> list:
        if self._log is None:
            self._log, self._records = self._records(), None
        return self._log

    def count(self) -> int:
        if self.counted is None:
            from .count import Counter

            self.counted = Counter(self.view).count(self.log())
        return self.counted

    def prefix(self, tl, k: int):
        """A Timeline of the whole graphs up to the one of step k (each built in full: names,
        captions, outputs), so that `tl[k]` costs the graphs before it, not all of them.
        Made again for a later step with at least twice the steps, so stepping through a
        timeline this way costs a few builds, not one per step."""
        part = self.part
        if part is None or k >= len(part._steps):
            from .timeline import Timeline

            wanted = max(k, 2 * len(part._steps) if part is not None else 0)
            part = Timeline([], [], [])
            part._block, part.skipped = tl._block, tl.skipped
            if build(part, self.log(), self.names, view=self.view, until=wanted):
                # every graph: this is the timeline's build, not one to make again
                tl._nodes, tl._edges, tl._steps, tl._code = part._lists()
                tl._pending, self.part = None, None
                write_captions(tl)
                self.check(tl)
                return tl
            self.part = part
        return part

    def build(self, tl) -> None:
        from .count import checking

        if self.counted is None and checking():
            self.count()  # tests: every build is checked against its count
        build(tl, self.log(), self.names, view=self.view)
        self.check(tl)

    def check(self, tl) -> None:
        """A built timeline has the steps its count told (tests: or it raises)."""
        from .count import checking

        if self.counted is not None and self.counted != len(tl._steps):
            message = (
                f"autoviz counted {self.counted:,} steps in this timeline but built "
                f"{len(tl._steps):,}: len(tl) was wrong before it was built; please report it"
            )
            if checking():
                raise AssertionError(message)
            warnings.warn(message, RuntimeWarning, stacklevel=4)


def build(tl, log: list, names: dict, modules: ModuleNames | None = None, view=None, until=None):
    """Fill timeline `tl` with what the logged events did, then write the captions.

    `view` reads the logged tensors and nodes: autoviz's own (with `modules`), or torch's
    from the bridge. `until`: stop at the end of the graph of that step (the op that starts
    the next graph is not replayed). Returns whether every record was replayed.
    """
    builder = Builder(tl._nodes, tl._edges, tl._steps, names, view or EngineView(modules))
    steps, whole = tl._steps, True
    for record in log:
        if until is not None and builder.graph_freed and len(steps) > until and record[0] == "op":
            whole = False
            break
        getattr(builder, record[0])(*record[1:])
    tl._code = source.record(tl._block, builder.places())
    builder.finish(source.identifiers(tl._code))
    write_captions(tl)
    return whole


class Builder:
    """Replays records: each adds nodes, edges and one or more steps.

    `live`: the records describe tensors as they are now (draw()), so each tensor's node takes
    its current `.grad`; in a timeline, grads come from the backward steps instead.
    """

    def __init__(self, nodes, edges, steps, names: dict, view, live: bool = False) -> None:
        self.nodes, self.edges, self.steps = nodes, edges, steps
        self.names, self.view, self.live = names, view, live
        self.key = view.key  # who a tensor is: id(), or the id a bridge's Seen facts were of
        self.tensor_types, self.acc_types = view.tensor_types, view.accumulate_types
        self.ids = {}  # key(tensor), id(grad_fn) or ("out", id(grad_fn)) -> node id
        self.input_edge = {}  # (op node id, input index) -> edge index
        self.output_ids = {}  # (op node id, output_nr) -> its output's node id
        self.grad_owner = {}  # id(a .grad tensor) -> node id of its owner
        self.arrived = {}  # node id -> gradient summed so far in this backward pass
        self.values = {}  # id(constant tensor) -> its latest preview, for its copy in a new graph
        self.objects = {}  # id(tensor) -> the tensor, when live (draw() links detached ones)
        self.current = {}  # node id -> its value after the steps so far changed it
        self.leaf_data = {}  # view.storage of a leaf -> its node (`w.data` changes the leaf)
        self.graph_no, self.graph_freed = 0, False
        self.ops = {}  # graph number -> the ids of its op nodes
        self.src = None
        self.lines, self.sources = {}, {}

    # -- building blocks -------------------------------------------------------------------
    def _node(self, key, kind: str, name: str, op=None, **fields) -> str:
        nodes = self.nodes
        node_id = f"n{len(nodes) + 1}"
        graph = fields.pop("graph", self.graph_no)
        nodes.append(Node(node_id, kind, name, op, graph=graph, step=len(self.steps), **fields))
        if kind == "op":  # what end() frees, found without a pass over all nodes
            self.ops.setdefault(graph, []).append(node_id)
        if key is not None:
            self.ids[key] = node_id
        return node_id

    def _tensor(self, t, kind: str, value, **flags) -> str:
        view = self.view
        # A parameter is called by its module path even where a variable still holds it
        # (the `p` a `for name, p in net.named_parameters()` loop leaves behind).
        name = view.given_name(t) or view.param_name(t) or self.names.get(self.key(t)) or ""
        if self.live:
            flags["grad"] = view.grad(t)
            flags["retains_grad"] = bool(view.retains_grad(t))
            self.objects[self.key(t)] = t
        return self._node(
            self.key(t),
            kind,
            name,
            shape=view.shape(t),
            dtype=view.dtype(t),
            value=value,
            requires_grad=t.requires_grad,
            **flags,
        )

    def _known(self, t) -> str | None:
        """The node of tensor `t` in the graph being built (or a leaf, which every graph has)."""
        node_id = self.ids.get(self.key(t))
        if node_id is not None and self._by_id(node_id).graph in (self.graph_no, PERSISTENT):
            return node_id
        return None

    def _shape_value(self, node_id: str) -> tuple:
        node = self._by_id(node_id)
        return node.shape, node.value

    def _by_id(self, node_id: str) -> Node:
        return node_at(self.nodes, node_id)

    def _edge(self, source: str, target: str, index: int, kind: str = "data") -> int:
        edges = self.edges
        edges.append(Edge(source, target, index, id=f"e{len(edges) + 1}", kind=kind))
        return len(edges) - 1

    def _step(self, phase, kind, src, nodes=(), edges=(), details=None, **extra) -> Step:
        if src is not None:
            self.src = src
        source = self._source(self.src) if self.src else None
        if details is None:
            details = {"graph": self.graph_no}
        else:
            details.setdefault("graph", self.graph_no)
        changes = extra.get("changes", ())
        for node_id, field, value in changes:
            if field == "value":
                self.current[node_id] = value
        step = Step(len(self.steps), phase, kind, "", list(nodes), list(edges), source)
        step.details = details
        for key, value in extra.items():
            setattr(step, key, value)
        self.steps.append(step)
        return step

    def _source(self, src) -> Source:
        """A step's line of code, from (file, line) or (file, line, caller's (file, line));
        one Source per place, shared by the steps made there (a loop's lines, many times)."""
        found = self.sources.get(src)
        if found is None:
            file, line = src[0], src[1]
            caller = src[2] if len(src) > 2 and src[2] is not None else None
            found = Source(file, line, self._line(file, line), caller and self._source(caller))
            self.sources[src] = found
        return found

    def _line(self, file, line) -> str:
        key = (file, line)
        if key not in self.lines:
            self.lines[key] = linecache.getline(file, line).strip()
        return self.lines[key]

    def _next_graph(self) -> None:
        """An op after a graph was freed builds the next one (a training loop's next
        iteration); what else happens in between belongs to the graph before."""
        if self.graph_freed:
            self.graph_no, self.graph_freed = self.graph_no + 1, False

    def _input(self, value, constant_preview, src) -> str:
        """The node of an op input; a leaf's first use is a step of its own."""
        if isinstance(value, self.tensor_types):
            known = self._known(value)
            if known is not None:
                return known
            if value.requires_grad and value.grad_fn is None:
                node_id = self._leaf(value, constant_preview)
                self._step("forward", "leaf", src, [node_id])
                return node_id
            if value.requires_grad:
                return self._tensor(value, "intermediate", constant_preview)
            if constant_preview is None:  # used before, in an earlier graph: as it was then
                constant_preview = self.values.get(self.key(value))
            self.values[self.key(value)] = constant_preview
            return self._tensor(value, "constant", constant_preview)
        if value is UNKNOWN:
            return self._node(None, "constant", "constant")
        if isinstance(value, np.ndarray):  # the indices an op kept of a tensor (embedding's)
            return self._array(value)
        return self._node(None, "constant", number_name(value), value=_plain(value))

    def _array(self, data) -> str:
        """The constant node of an integer tensor an op kept only the data of, named after the
        variable holding that tensor; one node per array in a graph."""
        key = ("data", id(data))
        known = self.ids.get(key)
        if known is not None and self._by_id(known).graph == self.graph_no:
            return known
        name = self.names.get(key, "")
        shape, dtype = tuple(data.shape), dtype_name(data)
        return self._node(key, "constant", name, shape=shape, dtype=dtype, value=preview(data))

    # -- forward -----------------------------------------------------------------------------
    def _leaf(self, t, value) -> str:
        """A leaf node; a parameter belongs to the module that owns it."""
        module = self.view.param_module(t)
        node_id = self._tensor(t, "leaf", value, graph=PERSISTENT, module=module)
        self.leaf_data[self.view.storage(t)] = node_id
        return node_id

    def leaf(self, src, t, value) -> None:
        node_id = self._leaf(t, value)
        self._step("forward", "leaf", src, [node_id])

    def constant(self, src, t, value) -> None:
        """A tensor that needs no gradient, drawn on its own (draw() of a constant)."""
        self._tensor(t, "constant", value)

    def op(self, src, fn, out, inputs, constants, value) -> None:
        # The engine's recorder leaves numpy scalars as they are and None for no new values.
        value = _plain(value)
        self._next_graph()
        op_id = self.ids.get(id(fn))
        if op_id is not None and self._by_id(op_id).graph == self.graph_no:
            return self._another_output(src, fn, op_id, out, value)
        constants = [None] * len(inputs) if constants is None else list(map(_plain, constants))
        # An input of None has no node: torch's next_functions has (None, 0) for an input
        # that needs no gradient, where the bridge cannot tell which argument it was.
        sources = [
            None if v is None else self._input(v, c, src)
            for v, c in zip(inputs, constants, strict=True)
        ]
        # What the op used besides its inputs: the labels of nll_loss, the exponent of `** 2`.
        view = self.view
        arguments = view.arguments(fn)
        if arguments:
            sources += [self._input(v, self._argument_preview(v), src) for v in arguments]
        module = view.op_module(fn)
        if module:
            for v, source in zip([*inputs, *arguments], sources, strict=True):
                if source is not None and not isinstance(v, self.tensor_types):
                    # a number written in the module's code
                    self._by_id(source).module = [list(p) for p in module]
        name = plain(fn.name())
        op_id = self._node(id(fn), "op", name, name, requires_grad=True, module=module)
        op_node = self.nodes[-1]
        op_node.params = view.params(fn, inputs)
        if value is None and sources[0] is not None:
            # torch makes W.t() inside F.linear and never returns it: its value is W's, turned
            seen = self.current.get(sources[0], self._by_id(sources[0]).value)
            value = derived(name, seen, out.shape, op_node.params)
        out_id = self._tensor(out, "intermediate", value, module=[list(p) for p in module])
        out_node = self.nodes[-1]
        if name in RESHAPES and value is not None and sources[0] is not None:
            made = self._by_id(sources[0])  # the addmm F.linear views back to a 1-D input's
            if made.value is None and made.kind != "leaf":
                made.value = derived(name, value, made.shape, {})
        nodes = self.nodes
        known = {}
        for i, source in enumerate(sources):
            if source:
                node = nodes[int(source[1:]) - 1]  # model.node_at, spared a call
                known[i] = (node.shape, node.value)
        op_node.saved = view.saved(fn, known, (out_node.shape, out_node.value))
        edges, input_edge = [], self.input_edge
        for index, source in enumerate(sources):
            if source is not None:
                edges.append(self._edge(source, op_id, index))
                input_edge[(op_id, index)] = edges[-1]
        self.ids[("out", id(fn))] = out_id
        edges.append(self._output_edge(fn, op_id, out, out_id))
        self._step("forward", "op", src, [op_id, out_id], edges)

    def _another_output(self, src, fn, op_id: str, out, value) -> None:
        """A later output of an op with several (a custom Function's `return a, b`, torch's
        split): its box joins the op's ellipse by an edge numbered as the output."""
        module = self._by_id(op_id).module
        out_id = self._tensor(out, "intermediate", value, module=[list(p) for p in module])
        edge = self._output_edge(fn, op_id, out, out_id)
        self._step("forward", "op", src, [op_id, out_id], [edge])

    def _output_edge(self, fn, op_id: str, out, out_id: str) -> int:
        """The edge from op `fn` to its output `out`, numbered as that output."""
        number = self.view.output_nr(out)
        self.output_ids[(op_id, number)] = out_id
        if out.grad_fn is not fn:  # an autoviz Output: where backward from this output starts
            self.ids[("out", id(out.grad_fn))] = out_id
        return self._edge(op_id, out_id, number)

    def _argument_preview(self, value):
        if isinstance(value, self.tensor_types):
            return self.view.value(value)
        return value

    def detach(self, src, source, out, value) -> None:
        source_id = self._known(source)
        if source_id is not None:
            node_id = self._tensor(out, "constant", value, detached=True)
            edge = self._edge(source_id, node_id, 0, kind="detach")
            self._step("forward", "detach", src, [node_id], [edge], details={"from": source_id})

    def untracked(self, src, out, inputs, value, grad_enabled=False) -> None:
        """A tensor computed without being recorded: under no_grad, or from tensors that need
        no gradient (`h.detach() + 1`). Drawn once one of its inputs is in the graph."""
        used = [self._known(v) for v in inputs if isinstance(v, self.tensor_types)]
        used = list(dict.fromkeys(u for u in used if u is not None))
        if not used:
            return
        node_id = self._tensor(out, "constant", value, made_in_no_grad=not grad_enabled)
        edges = [self._edge(u, node_id, i, kind="untracked") for i, u in enumerate(used)]
        kind = "constant" if grad_enabled else "no_grad"
        self._step("forward", kind, src, [node_id], edges, details={"from": used})

    def rebind(self, src, t, out) -> None:
        """An in-place op on a tensor in the graph (`y.mul_(3)`): from now on `t` is the op's
        result, which is named after `t` as PyTorch keeps the name on the tensor."""
        new, old = self.ids.get(self.key(out)), self.ids.get(self.key(t))
        if new is None:
            return
        if old is not None:
            result = self._by_id(new)
            result.name = result.name or self._by_id(old).name
        self.ids[self.key(t)] = new

    def retain(self, src, t) -> None:
        node_id = self._known(t)
        if node_id is not None:
            self._step(
                "forward", "retain_grad", src, [node_id], changes=[[node_id, "retains_grad", True]]
            )

    # -- backward ----------------------------------------------------------------------------
    def seed(self, src, seeds) -> None:
        self.arrived = {}
        for fn, grad in seeds:
            key = ("out", id(fn)) if not isinstance(fn, self.acc_types) else id(fn.variable)
            out_id = self.ids.get(key)
            if out_id is not None:
                self._by_id(out_id).kind = "output"
                self._step("backward", "seed", src, [out_id], details={"grad": grad})

    def node(self, src, fn, grad_data, grads_data, local, full=None) -> None:
        """A backward step of node `fn`; `full`: {input: what it sends a broadcast input
        before the sum}, where the recorder computed it."""
        op_id = self.ids.get(id(fn))
        if op_id is None or isinstance(fn, self.acc_types):
            return
        details = {}
        if isinstance(grad_data, tuple):
            # a node with several outputs gets one gradient from each (None: nothing came)
            ids = self.output_ids
            details["grads"] = [
                [ids[(op_id, i)], preview(g)]
                for i, g in enumerate(grad_data)
                if g is not None and (op_id, i) in ids
            ]
            grad_data = None
        grad, grad_shape = preview(grad_data), _shape(grad_data)
        grads = [None if g is None else (preview(g), _shape(g)) for g in grads_data]
        locals_ = local or _divide(fn, grad, grads)
        flows, reductions = [], []
        for index, ((child, _), g) in enumerate(zip(fn.next_functions, grads, strict=False)):
            edge_index = self.input_edge.get((op_id, index))
            if child is None or g is None or edge_index is None:
                continue
            contribution, shape = g[0], tuple(g[1])
            source = self.edges[edge_index].source
            local_i = locals_[index] if locals_ else None
            if _reduces(plain(fn.name()), index, shape, grad_shape):
                # The op's gradient for a broadcast input has the output's shape; the sum back
                # to the input's shape is the next step, shown with both shapes.
                sent = full.get(index) if full else None
                if sent is None:
                    sent = self._unreduced(fn, op_id, index, grad, grad_shape)
                else:
                    sent = preview(sent)
                flows.append(Flow(edge_index, grad, local_i, sent, grad_shape))
                reductions.append((source, edge_index, sent, contribution, shape))
                continue
            total = self._arrive(source, contribution)
            flows.append(Flow(edge_index, grad, local_i, contribution, shape, total))
        self._step(
            "backward",
            "backward",
            src,
            [op_id],
            [f.edge for f in flows],
            flows=flows,
            details={"grad": grad, **details},
        )
        for source, edge_index, full, contribution, shape in reductions:
            total = self._arrive(source, contribution)
            flow = Flow(edge_index, full, None, contribution, shape, total)
            details = {
                "from_shape": list(grad_shape),
                "to_shape": list(shape),
                "dims": summed_dims(grad_shape, shape),
            }
            self._step(
                "backward", "reduce", src, [source], [edge_index], flows=[flow], details=details
            )

    def _unreduced(self, fn, op_id: str, index: int, grad, grad_shape: tuple):
        """What the op sends a broadcast input before the sum: upstream × local, at the
        output's shape (None where the previews do not tell)."""
        if grad is None:
            return None
        name = plain(fn.name())
        if type(grad) is Summary:  # the upstream itself, for a sum; else not known
            sums = name in ("AddBackward0", "AddmmBackward0") or (
                name == "SubBackward0" and index == 0
            )
            return grad if sums and tuple(grad.shape) == tuple(grad_shape) else None
        up = np.broadcast_to(np.asarray(grad, dtype=float), grad_shape)
        if name in ("AddBackward0", "AddmmBackward0") or (name == "SubBackward0" and index == 0):
            return up.tolist()
        if name == "SubBackward0":
            return (-up).tolist()
        if name == "MulBackward0":
            other = self.input_edge.get((op_id, 1 - index))
            value = self._by_id(self.edges[other].source).value if other is not None else None
            if value is not None:
                return (up * np.broadcast_to(np.asarray(value, dtype=float), grad_shape)).tolist()
        return None

    def _arrive(self, node_id: str, contribution):
        """The running sum at a node that fans out (None for its first contribution, and
        once a summarised gradient made the sum unknown)."""
        before = self.arrived.get(node_id, _NOTHING)
        if contribution is None:
            return None
        if before is _NOTHING:
            self.arrived[node_id] = contribution
            return None
        if before is None or type(contribution) is Summary or type(before) is Summary:
            self.arrived[node_id] = None  # a sum of summaries is not known
            return None
        if type(before) is float and type(contribution) is float:
            total = before + contribution  # scalars: no arrays
        elif _floats(before) and _floats(contribution) and len(before) == len(contribution):
            total = [a + b for a, b in zip(before, contribution)]  # noqa: B905 (lengths checked)
        else:
            total = (np.asarray(before) + np.asarray(contribution)).tolist()
        self.arrived[node_id] = total
        return total

    def accumulate(self, src, t, grad_tensor, incoming, total, shared=()) -> None:
        """A leaf's (or retained tensor's) .grad now holds `total`; `shared`: (tensor, its
        .grad now) of the others whose .grad is the same memory (torch's, see the bridge)."""
        node_id = self.ids.get(self.key(t))
        if node_id is None:
            return
        incoming = preview(incoming)
        self.grad_owner[self.key(grad_tensor)] = node_id
        changes = [[node_id, "grad", total]]
        changes += [[i, "grad", g] for o, g in shared if (i := self.ids.get(self.key(o)))]
        details = {"incoming": incoming, "grad": total}
        if len(changes) > 1:
            details["shared"] = [i for i, _, _ in changes[1:]]
        self._step("backward", "accumulate", src, [node_id], changes=changes, details=details)

    def end(self, src, retain_graph) -> None:
        if retain_graph:
            return
        ops = self.ops.get(self.graph_no, [])
        self._step("backward", "free", src, ops, changes=[[i, "freed", True] for i in ops])
        self.graph_freed = True

    # -- updates: parameters and gradients changed outside the graph -------------------------
    def update(self, src, t, value, rule) -> None:
        """An optimizer's step changed parameter `t`; `rule` says how (see updates.py)."""
        node_id = self._known(t)
        if node_id is not None:
            self._set_value(t, value)
            details = {"rule": rule}
            changes = [[node_id, "value", value]]
            self._step("update", "update", src, [node_id], changes=changes, details=details)

    def zero_grad(self, src, tensors, values, set_to_none) -> None:
        """`optimizer.zero_grad()` or `net.zero_grad()`: every parameter's grad at once."""
        nodes = [self._known(t) for t in tensors]
        changes = [[n, "grad", v] for n, v in zip(nodes, values, strict=True) if n is not None]
        if changes:
            ids = [c[0] for c in changes]
            details = {"set_to_none": set_to_none}
            self._step("update", "zero_grad", src, ids, changes=changes, details=details)

    def zero(self, src, t, value) -> None:
        owner = self.grad_owner.get(self.key(t))
        if owner is not None:
            self._step("update", "zero_grad", src, [owner], changes=[[owner, "grad", value]])
        else:
            self.inplace(src, t, value)

    def set_grad(self, src, t, value, new) -> None:
        node_id = self._known(t)
        if node_id is not None:
            if value is not None:
                self.grad_owner[self.key(value)] = node_id
            self._step("update", "set_grad", src, [node_id], changes=[[node_id, "grad", new]])

    def inplace(self, src, t, value) -> None:
        """A tensor changed in place without being recorded: a parameter under no_grad (a
        hand-written update step, `w -= lr * w.grad` or `w.data -= ...`), or data that needs no
        gradient."""
        node_id = self._known(t)
        if node_id is None:  # `w.data`, a tensor of its own sharing the leaf's data
            node_id = self.leaf_data.get(self.view.storage(t))
        if node_id is None:
            return
        self._set_value(t, value)
        changes = [[node_id, "value", value]]
        if self._by_id(node_id).kind == "leaf":
            self._step("update", "update", src, [node_id], changes=changes, details={"rule": None})
        else:
            self._step("forward", "inplace", src, [node_id], changes=changes)

    def _set_value(self, t, value) -> None:
        if self.key(t) in self.values:
            self.values[self.key(t)] = value

    # -- the program raised ------------------------------------------------------------------
    def error(self, src, node, name, tensors, modules, kind: str, message: str) -> None:
        """The step the program raised at: the backward node that failed (`node`), or the op
        that was called (`name`, given `tensors`, inside `modules`), drawn red; or neither,
        when the user's own code raised."""
        details = {"type": kind, "message": message}
        op_id = self.ids.get(id(node)) if node is not None else None
        if op_id is not None:
            details["graph"] = self._by_id(op_id).graph
            changes = [[op_id, "error", True]]
            self._step("error", "error", src, [op_id], changes=changes, details=details)
            return
        if name is None:
            self._step("error", "error", src, details=details)
            return
        self._next_graph()
        sources = [self._input(t, self._argument_preview(t), src) for t in tensors]
        module = self.view.running_modules(modules)
        op_id = self._node(None, "op", name, name, module=module, error=True)
        edges = [self._edge(source, op_id, i) for i, source in enumerate(sources)]
        self._step("error", "error", src, [op_id], edges, details=details)

    # -- the end -----------------------------------------------------------------------------
    def finish(self, identifiers=frozenset()) -> None:
        """Name the tensors (never a fallback name the program uses: its variables and the
        `identifiers` of its code), and mark the outputs."""
        label_tensors(self.nodes, self.edges, identifiers | set(self.names.values()))
        _mark_outputs(self.nodes, self.edges, self.steps)

    def places(self) -> list:
        """(file, line) of every line a step came from, and of the lines that called them."""
        out = []
        for found in self.sources.values():
            while found is not None:
                out.append((found.file, found.line))
                found = found.caller
        return out


def _shape(data) -> tuple:
    """np.shape as a tuple, spared its dispatch for arrays and numpy scalars (the many)."""
    shape = getattr(data, "shape", None)
    return tuple(np.shape(data) if shape is None else shape)


def number_name(value) -> str:
    """How a number an op used is labelled: as Python prints it."""
    return repr(_plain(value))


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def _reduces(op: str, index: int, shape: tuple, grad_shape: tuple) -> bool:
    """Whether input `index` was broadcast, so its gradient is the upstream summed back."""
    if shape == grad_shape or math.prod(shape) >= math.prod(grad_shape):
        return False
    return op in ELEMENTWISE or (op == "AddmmBackward0" and index == 0)


def summed_dims(big: tuple, small: tuple) -> list:
    """The dimensions of `big` that summing back to `small` adds up (as unbroadcast does)."""
    extra = len(big) - len(small)
    kept = [i + extra for i, n in enumerate(small) if n == 1 and big[i + extra] != 1]
    return list(range(extra)) + kept


def _divide(fn, grad, grads):
    """Local derivatives of an elementwise op as contribution / upstream (upstream has no 0)."""
    if plain(fn.name()) not in ELEMENTWISE or grad is None or type(grad) is Summary:
        return None
    if type(grad) is float:  # scalars, the common case: plain division, no arrays
        if grad == 0:
            return None
        return [
            g[0] / grad if g is not None and type(g[0]) in (float, int) else None for g in grads
        ]
    if _floats(grad):  # a short 1-D gradient (a torch scalar of shape (1,)): no arrays either
        if 0.0 in grad:
            return None
        return [
            [a / b for a, b in zip(g[0], grad)]  # noqa: B905 (lengths checked)
            if g is not None and _floats(g[0]) and len(g[0]) == len(grad)
            else None
            for g in grads
        ]
    up = np.asarray(grad, dtype=float)
    if np.any(up == 0):
        return None
    result = []
    for g in grads:
        if g is None or not isinstance(g[0], list | float) or np.shape(g[0]) != up.shape:
            result.append(None)
        else:
            result.append((np.asarray(g[0], dtype=float) / up).tolist())
    return result


def _floats(value) -> bool:
    """Whether `value` is a flat list of floats, which Python adds and divides exactly as numpy
    does in float64."""
    return type(value) is list and all(type(v) is float for v in value)


def _mark_outputs(nodes, edges, steps) -> None:
    """In a graph where backward never ran, tensors no op consumed are its outputs."""
    with_backward = {s.details.get("graph") for s in steps if s.kind == "seed"}
    consumed = {e.source for e in edges if e.kind == "data"}
    for node in nodes:
        unused = node.kind == "intermediate" and node.id not in consumed
        if unused and node.graph not in with_backward:
            node.kind = "output"
