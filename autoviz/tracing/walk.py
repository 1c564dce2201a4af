"""Turn the graph behind an engine tensor into the plain-data Graph, as torchviz walks it."""

import numpy as np

from ..engine import AccumulateGrad, Tensor
from .model import Edge, Graph, Node
from .modules import ModuleNames
from .naming import names_by_identity
from .preview import preview
from .saved import saved_entries


def graph_of(root: Tensor, namespace: dict | None = None) -> Graph:
    """The graph that ends at `root`, walking grad_fn.next_functions without recursion."""
    if not isinstance(root, Tensor):
        raise TypeError(
            f"draw() expects an autoviz Tensor, a Graph or a Timeline, got {type(root).__name__}"
        )
    names = names_by_identity(namespace or {}, lambda v: isinstance(v, Tensor))
    builder = _Builder(names, ModuleNames(namespace or {}))
    builder.add_root(root)
    builder.finish()
    return builder.graph


class _Builder:
    """Collects nodes in creation-like order: each op after the inputs it uses."""

    def __init__(self, names: dict, modules: ModuleNames) -> None:
        self.names, self.modules = names, modules
        self.graph = Graph()
        self.ids = {}  # engine object id -> diagram node id
        self.unnamed = []

    def add_root(self, root: Tensor) -> None:
        if root.grad_fn is None:
            self.tensor_node(root, "leaf" if root.requires_grad else "constant", root)
            return
        for fn in self._ops_in_order(root.grad_fn):
            self.op(fn, fn is root.grad_fn, root)

    def _ops_in_order(self, top) -> list:
        """Post-order over grad_fn nodes, inputs first, with an explicit stack."""
        order, seen, stack = [], {top}, [(top, False)]
        while stack:
            fn, expanded = stack.pop()
            if expanded:
                order.append(fn)
                continue
            stack.append((fn, True))
            for child, _ in reversed(fn.next_functions):
                if child is not None and child not in seen:
                    seen.add(child)
                    stack.append((child, False))
        return order

    def op(self, fn, is_root: bool, root: Tensor) -> None:
        if isinstance(fn, AccumulateGrad):
            return self.leaf(fn.variable)
        inputs = []
        for index, (child, _) in enumerate(fn.next_functions):
            if child is not None:
                src = self.leaf(child.variable) if isinstance(child, AccumulateGrad) else None
                inputs.append((src or self.ids[("out", id(child))], index))
        module = self.modules.of_op(fn)
        op = Node("", "op", fn.name(), op=fn.name(), requires_grad=True, module=module)
        op_id = self.new_node(op)
        for src, index in inputs:
            self.graph.edges.append(Edge(src, op_id, index))
        tensor = root if is_root else self.names.get(("fn", id(fn)), (None, None))[1]
        out = self.tensor_node(tensor, "output" if is_root else "intermediate", fn=fn)
        self.node_of(out).module = [list(pair) for pair in module]
        self.ids[("out", id(fn))] = out
        self.graph.edges.append(Edge(op_id, out, 0))
        known = {i: self._shape_value(src) for src, i in inputs}
        op.saved = saved_entries(fn, known, self._shape_value(out))

    def node_of(self, node_id: str) -> Node:
        return self.graph.nodes[int(node_id[1:]) - 1]

    def _shape_value(self, node_id: str) -> tuple:
        node = self.node_of(node_id)
        return node.shape, node.value

    def leaf(self, tensor: Tensor) -> str:
        key = id(tensor)
        if key not in self.ids:
            self.ids[key] = self.tensor_node(tensor, "leaf")
            self.node_of(self.ids[key]).module = self.modules.of_parameter(tensor)
        return self.ids[key]

    def tensor_node(self, tensor, kind: str, fn=None) -> str:
        data = tensor._data if tensor is not None else fn._out
        name = self._name(tensor, fn)
        grad = tensor._grad if tensor is not None else None
        node = Node(
            "",
            kind,
            name or "",
            shape=tuple(np.shape(data)),
            dtype=str(np.asarray(data).dtype),
            value=preview(data),
            grad=preview(grad._data) if grad is not None else None,
            requires_grad=tensor.requires_grad if tensor is not None else True,
            retains_grad=bool(tensor is not None and tensor._retains_grad),
        )
        node_id = self.new_node(node)
        if not name:
            self.unnamed.append(node)
        return node_id

    def _name(self, tensor, fn):
        if tensor is not None and tensor._name:
            return tensor._name
        key = id(tensor) if tensor is not None else ("fn", id(fn))
        found = self.names.get(key, (None, None))[0]
        return found or self.modules.param_names.get(key)

    def new_node(self, node: Node) -> str:
        node.id = f"n{len(self.graph.nodes) + 1}"
        self.graph.nodes.append(node)
        return node.id

    def finish(self) -> None:
        for i, node in enumerate(self.unnamed, 1):
            node.name = f"t{i}"
        self.graph.backward_ran = any(n.grad is not None for n in self.graph.nodes)
