"""The graph behind a tensor, for draw(): its grad_fn nodes walked once each, inputs first,
handed to the timeline's builder as records, so drawings and timelines are built alike."""

from ..collector import collector_paused
from ..errors import GraphTooLarge
from .builder import UNKNOWN, Builder
from .model import Edge, Graph
from .modules import ModuleNames
from .naming import names_by_identity
from .view import EngineView

# Ops inside nn.Modules may collapse into module boxes, so only those outside count against
# max_nodes; past this many ops in all the walk stops too, whatever modules could do.
_MODULE_OPS_PER_NODE = 20


def graph_of(root, namespace: dict | None = None, view=None, max_nodes: int | None = None):
    """The graph that ends at `root`, walking grad_fn.next_functions without recursion.

    `view` reads the tensors and nodes: autoviz's own by default, torch's from the bridge.
    With `max_nodes`, a graph that could not be drawn in that many nodes raises GraphTooLarge
    as soon as the walk has seen enough of it to know.
    """
    view = view or EngineView(ModuleNames(namespace or {}))
    if not isinstance(root, view.tensor_types):
        raise TypeError(
            f"draw() expects an autoviz Tensor, a Graph or a Timeline, got {type(root).__name__}"
        )
    found = names_by_identity(namespace or {}, lambda v: isinstance(v, view.tensor_types))
    names = {id(t): name for name, t in found.values()}
    # The data of integer tensors an op kept without the tensor (embedding's indices).
    names |= {("data", id(t._data)): name for name, t in found.values() if hasattr(t, "_data")}
    builder = Builder([], [], [], names, view, live=True)
    if root.grad_fn is None:
        kind = builder.leaf if root.requires_grad else builder.constant
        kind(None, root, view.value(root))
    else:
        # Held back: torch makes a node object per input of next_functions, and a fan-in of
        # 100,000 leaves set off full collections over the whole heap (0.8 s of 0.9 s).
        with collector_paused():
            top = getattr(root.grad_fn, "node", root.grad_fn)  # an autoviz Output's node
            order = ops_in_order(top, view, max_nodes)
            _add_ops(builder, root, found, view, order)
    _link_detached(builder, view)
    builder.finish({name for name in namespace or {} if isinstance(name, str)})
    graph = Graph(builder.nodes, builder.edges)
    graph.backward_ran = any(n.grad is not None for n in graph.nodes)
    return graph


def _add_ops(builder: Builder, root, found: dict, view, order: list) -> None:
    """One op record per backward node; a node's inputs are the leaves, constants and the
    tensors earlier ops made (a variable's tensor, or a stand-in for one nobody holds)."""
    made = {}  # (id(grad_fn), output_nr) -> the tensor standing for that output
    top = (id(order[-1]), root.output_nr)  # the root's node comes last, after all its inputs
    used = {top[0]: {top[1]}}  # id(grad_fn) -> the outputs of it the graph uses
    # asked once per node: torch makes next_functions anew on every read
    nexts = [(fn, fn.next_functions) for fn in order]
    for _, edges in nexts:
        for child, number in edges:
            if child is not None:
                used.setdefault(id(child), set()).add(number)
    for fn, edges in nexts:
        if isinstance(fn, view.accumulate_types):
            continue  # a leaf: drawn as the input of the ops that use it
        inputs = []
        for index, (child, number) in enumerate(edges):
            if child is None:
                value = view.constant_input(fn, index)
                inputs.append(UNKNOWN if value is None else value)
            elif isinstance(child, view.accumulate_types):
                inputs.append(child.variable)
            else:
                inputs.append(made[(id(child), number)])
        previews = [
            view.value(v) if isinstance(v, view.tensor_types) else None if v is UNKNOWN else v
            for v in inputs
        ]
        for number in sorted(used[id(fn)]):  # one record per output (split has several)
            if (id(fn), number) == top:
                out = root
            else:
                out = found.get(("fn", id(fn), number), (None, None))[1]
                out = view.stand_in(fn, number) if out is None else out
            made[(id(fn), number)] = out
            builder.op(None, fn, out, inputs, previews, view.value(out))


def ops_in_order(top, view=None, max_nodes: int | None = None) -> list:
    """Every grad_fn node reachable from `top`, each once and after all its inputs (an
    explicit stack: no recursion limit). Past `max_nodes` ops that no module could collapse
    (or many more inside modules) it stops with GraphTooLarge."""
    view = view or EngineView()
    order, seen, stack = [], set(), [(top, False)]
    outside = total = 0
    while stack:
        fn, finished = stack.pop()
        if finished:
            order.append(fn)
            continue
        if fn in seen:  # reached again by another path, and already placed or on its way
            continue
        seen.add(fn)
        stack.append((fn, True))
        for child, _ in reversed(fn.next_functions):
            if child is not None and child not in seen:
                stack.append((child, False))
        if max_nodes is not None:
            # a leaf counts as an op does: a fan-in of 100,000 leaves is refused as soon
            total += 1
            outside += not view.in_module(fn)
            if outside > max_nodes or total > _MODULE_OPS_PER_NODE * max_nodes:
                raise GraphTooLarge(_too_large(outside, total, max_nodes))
    return order


def _too_large(outside: int, total: int, max_nodes: int) -> str:
    if outside > max_nodes:
        what = f"more than {max_nodes:,} operations and leaves outside any nn.Module"
    else:
        what = f"more than {_MODULE_OPS_PER_NODE * max_nodes:,} operations and leaves"
    return (
        f"this graph has {what}, so its diagram would draw more than max_nodes={max_nodes:,} "
        "nodes: the walk stopped there and no layout was started. Draw a smaller part of the "
        "graph (an intermediate tensor, or one iteration of a loop); group it by module "
        "(run the model as nn.Modules, then depth=1 collapses each to one box); or raise "
        "max_nodes= if you really want it."
    )


def _link_detached(builder: Builder, view) -> None:
    """A constant that shares its data with a tensor of the graph was detached from it (or
    is its `.data`): drawn dashed, with a dashed link from that tensor."""
    tensors, constants = {}, []  # storage -> node id of a tracked tensor; constants' nodes
    for key, t in builder.objects.items():
        node = builder.nodes[int(builder.ids[key][1:]) - 1]
        storage = view.storage(t)
        if storage is None:
            continue
        if node.kind == "constant":
            constants.append((node, storage))
        else:
            tensors.setdefault(storage, node.id)
    for node, storage in constants:
        source = tensors.get(storage)
        if source is not None:
            node.detached = True
            edge_id = f"e{len(builder.edges) + 1}"
            builder.edges.append(Edge(source, node.id, 0, id=edge_id, kind="detach"))
