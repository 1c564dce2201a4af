"""Turn the graph behind a tensor into the plain-data Graph, as torchviz walks it."""

from .model import Edge, Graph, Node, node_at
from .modules import ModuleNames
from .naming import names_by_identity
from .view import EngineView


def graph_of(root, namespace: dict | None = None, view=None) -> Graph:
    """The graph that ends at `root`, walking grad_fn.next_functions without recursion.

    `view` reads the tensors and nodes: autoviz's own by default, torch's from the bridge.
    """
    view = view or EngineView(ModuleNames(namespace or {}))
    if not isinstance(root, view.tensor_types):
        raise TypeError(
            f"draw() expects an autoviz Tensor, a Graph or a Timeline, got {type(root).__name__}"
        )
    names = names_by_identity(namespace or {}, lambda v: isinstance(v, view.tensor_types))
    builder = _Builder(names, view)
    builder.add_root(root)
    builder.finish()
    return builder.graph


def ops_in_order(top) -> list:
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


class _Builder:
    """Collects nodes in creation-like order: each op after the inputs it uses."""

    def __init__(self, names: dict, view) -> None:
        self.names, self.view = names, view
        self.graph = Graph()
        self.ids = {}  # engine object id -> diagram node id
        self.unnamed = []

    def add_root(self, root) -> None:
        if root.grad_fn is None:
            self.tensor_node(root, "leaf" if root.requires_grad else "constant")
            return
        for fn in ops_in_order(root.grad_fn):
            self.op(fn, fn is root.grad_fn, root)

    def op(self, fn, is_root: bool, root) -> None:
        if isinstance(fn, self.view.accumulate_types):
            return self.leaf(fn.variable)
        inputs = []
        for index, (child, _) in enumerate(fn.next_functions):
            if child is not None:
                is_leaf = isinstance(child, self.view.accumulate_types)
                src = self.leaf(child.variable) if is_leaf else None
                inputs.append((src or self.ids[("out", id(child))], index))
        module = self.view.op_module(fn)
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
        op.saved = self.view.saved(fn, known, self._shape_value(out))

    def node_of(self, node_id: str) -> Node:
        return node_at(self.graph.nodes, node_id)

    def _shape_value(self, node_id: str) -> tuple:
        node = self.node_of(node_id)
        return node.shape, node.value

    def leaf(self, tensor) -> str:
        key = id(tensor)
        if key not in self.ids:
            self.ids[key] = self.tensor_node(tensor, "leaf")
            self.node_of(self.ids[key]).module = self.view.param_module(tensor)
        return self.ids[key]

    def tensor_node(self, tensor, kind: str, fn=None) -> str:
        view = self.view
        if tensor is not None:
            shape, dtype, value = view.shape(tensor), view.dtype(tensor), view.value(tensor)
        else:
            shape, dtype, value = view.output(fn)
        name = self._name(tensor, fn)
        node = Node(
            "",
            kind,
            name or "",
            shape=shape,
            dtype=dtype,
            value=value,
            grad=view.grad(tensor) if tensor is not None else None,
            requires_grad=tensor.requires_grad if tensor is not None else True,
            retains_grad=bool(tensor is not None and view.retains_grad(tensor)),
        )
        node_id = self.new_node(node)
        if not name:
            self.unnamed.append(node)
        return node_id

    def _name(self, tensor, fn):
        if tensor is None:
            return self.names.get(("fn", id(fn)), (None, None))[0]
        view = self.view
        found = self.names.get(id(tensor), (None, None))[0]
        return view.given_name(tensor) or found or view.param_name(tensor)

    def new_node(self, node: Node) -> str:
        node.id = f"n{len(self.graph.nodes) + 1}"
        self.graph.nodes.append(node)
        return node.id

    def finish(self) -> None:
        for i, node in enumerate(self.unnamed, 1):
            node.name = f"t{i}"
        self.graph.backward_ran = any(n.grad is not None for n in self.graph.nodes)
