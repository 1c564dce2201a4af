"""The backward pass: an iterative walk over grad_fn nodes, in PyTorch's order."""

import heapq
import weakref

import numpy as np

from ..errors import NotInAutoviz
from . import events, versions
from .function import FREED, AccumulateGrad, PostHook, RemovableHandle
from .grad_mode import _anomaly


def run_backward(roots, grad_outputs, retain_graph=None, create_graph=False, inputs=None):
    """Back-propagate from `roots`, seeding each with its grad output (1 for scalars); with
    `inputs`, only into those tensors' `.grad` (leaves or not), running only the nodes on a
    path to them, as PyTorch does."""
    seeds = {}
    for root, grad in zip(roots, grad_outputs, strict=True):
        node = _root_node(root)
        seed = _seed(root, grad)
        if create_graph:  # the gradients are recorded too, to be differentiated again
            from .higher import record_seed

            seed = record_seed(grad if grad is not None else seed)
        seeds[node] = _add(seeds.get(node), seed)
    if inputs is not None:
        _backward_into(seeds, inputs, bool(retain_graph), create_graph)
        return
    if create_graph:
        from .higher import execute_graph

        execute_graph(seeds)
        return
    execute(seeds, bool(retain_graph))


def _backward_into(seeds, inputs, retain_graph: bool, create_graph: bool) -> None:
    from .autograd import _as_tuple

    inputs = _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    if create_graph:
        raise NotInAutoviz("backward(inputs=...) with create_graph=True is not in autoviz yet")
    targets = {}
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        targets[t.grad_fn if t.grad_fn is not None else t._accumulator()] = t
    captured = execute(seeds, retain_graph, capture=set(targets), into_leaves=True)
    for node, t in targets.items():
        # a leaf's AccumulateGrad ran already, and so did the hook of one that retains grad
        if t.grad_fn is not None and node in captured and not t._retains_grad:
            t._accumulate(captured[node])


def _root_node(tensor):
    if not tensor.requires_grad:
        raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
    return tensor.grad_fn if tensor.grad_fn is not None else tensor._accumulator()


def _seed(tensor, grad):
    if grad is None:
        if np.size(tensor._data) != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        return np.ones_like(tensor._data)
    data = getattr(grad, "_data", grad)
    if np.shape(data) != np.shape(tensor._data):
        raise RuntimeError(
            f"Mismatch in shape: grad_output[0] has a shape of {_size(np.shape(data))} and "
            f"output[0] has a shape of {_size(np.shape(tensor._data))}."
        )
    return data


def _size(shape) -> str:
    return f"torch.Size({list(shape)})"


def _add(total, grad):
    return grad if total is None else total + grad


def dependencies(roots) -> dict:
    """How many edges point at each node reachable from `roots` (an explicit stack)."""
    deps = dict.fromkeys(roots, 0)
    stack = list(roots)
    get, push, pop = deps.get, stack.append, stack.pop  # bound once: this runs for every edge
    while stack:
        for fn in pop()._next:
            if fn is None:
                continue
            count = get(fn)  # one lookup, not `in` and then `[]`
            if count is None:
                deps[fn] = 1
                push(fn)
            else:
                deps[fn] = count + 1
    return deps


def leading_to(roots, targets) -> set:
    """The nodes from which some node in `targets` can be reached (the targets among them)."""
    reach = {}
    stack = [(root, False) for root in roots]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            reach[node] = node in targets or any(reach.get(fn, False) for fn in node._next)
        elif node not in reach:
            reach[node] = False
            stack.append((node, True))
            stack.extend((fn, False) for fn in node._next if fn is not None and fn not in reach)
    return {node for node, ok in reach.items() if ok}


def execute(seeds: dict, retain_graph: bool, capture: set | None = None, into_leaves=False):
    """Run every node once all its gradients have arrived, latest-created first.

    With `capture`, the gradients arriving at those nodes are returned instead, and no
    AccumulateGrad runs (that is `autograd.grad`), but for the captured ones when
    `into_leaves` (that is `backward(inputs=...)`).
    """
    captured = {}
    deps = dependencies(seeds)
    if capture is not None:  # only the nodes on a path to the inputs run, as in PyTorch
        needed = leading_to(seeds, capture)
        deps = {node: n for node, n in deps.items() if node in needed}
        for node in seeds:
            deps.setdefault(node, 0)
    buffers = dict(seeds)
    order = 0
    ready = []
    for node in seeds:
        if deps[node] == 0:
            ready.append((-node._seq, order, node))
            order += 1
    heapq.heapify(ready)
    notify = bool(events.observers)
    if notify:
        events.on_backward_start(seeds)
    heappop, heappush, heappushpop = heapq.heappop, heapq.heappush, heapq.heappushpop
    take, get, deps_get = buffers.pop, buffers.get, deps.get
    modified = versions.modified
    nan_check = _anomaly["enabled"] and _anomaly["check_nan"]
    node = heappop(ready)[2] if ready else None
    while node is not None:
        grad = take(node, None)
        if modified and grad is not None:
            versions.check(node)
        if capture is not None:
            if grad is not None and node in capture:
                captured[node] = grad
            if isinstance(node, AccumulateGrad) and not (into_leaves and node in capture):
                grad = None
        if grad is None:
            grads = (None,) * len(node._next)  # nothing to pass on, but every edge is done
        elif notify or node._pre_hooks:
            if node._pre_hooks:
                grads = _run_node(node, grad, notify)
            else:  # traced, no hooks: the observer is told without a call around it
                grads = node._gradients(grad)
                if type(grads) is not tuple:
                    grads = (grads,)
                events.on_node(node, grad, grads)
        else:
            grads = node._gradients(grad)  # the usual case, without the call around it
            if type(grads) is not tuple:
                grads = (grads,)
        if nan_check and grad is not None:
            _refuse_nan(node, grads)
        # One pass over the edges: add each gradient into its buffer, then count the edge
        # done. A node seen twice here (x * x) becomes ready only after its last edge, so
        # both gradients are in its buffer by then.
        # zip() without strict=: a keyword argument makes the call several times slower, and
        # this runs for every node.
        following = None
        for fn, g in zip(node._next, grads):  # noqa: B905
            if fn is None:
                continue
            count = deps_get(fn)
            if count is None:  # off every path to autograd.grad's inputs
                continue
            if g is not None:
                total = get(fn)
                buffers[fn] = g if total is None else total + g
            left = count - 1
            if left:
                deps[fn] = left
            else:
                order += 1
                if following is None:
                    following, following_order = fn, order
                else:
                    heappush(ready, (-fn._seq, order, fn))
        if not retain_graph:
            node._saved = FREED  # what backward needed is dropped (AccumulateGrad saves none)
        # The latest-created ready node runs next. When this node made the only one ready
        # (a chain, most steps of a network), it runs without a trip through the heap.
        if following is None:
            node = heappop(ready)[2] if ready else None
        elif ready:
            node = heappushpop(ready, (-following._seq, following_order, following))[2]
        else:
            node = following
    if notify:
        events.on_backward_end(retain_graph)
    return captured


def _refuse_nan(node, grads) -> None:
    """detect_anomaly's check: a node whose gradient for an input holds NaN stops backward."""
    for i, g in enumerate(grads):
        if g is not None and np.isnan(getattr(g, "_data", g)).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")


def _run_node(node, grad, notify):
    hooks = node._pre_hooks
    if hooks:
        # a tensor's hooks first, then the one keeping its .grad (torch runs that last)
        before = [h for h in hooks if type(h) is not PostHook]
        for hook in sorted(before, key=lambda h: getattr(h, "keeps_grad", False)):
            result = hook(grad)
            if result is not None:
                grad = result
    grads = node._gradients(grad)
    if type(grads) is not tuple:
        grads = (grads,)
    for hook in hooks or ():
        if type(hook) is PostHook:
            grads = hook.after(grads, grad, node._next)
    if notify:
        events.on_node(node, grad, grads)
    return grads


def retain_grad(tensor) -> None:
    """Make backward store this non-leaf tensor's gradient in `.grad`."""
    if tensor.grad_fn is None:
        if not tensor.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        return
    if tensor._retains_grad:
        return
    tensor._retains_grad = True
    if events.observers:
        events.on_retain_grad(tensor)
    ref = weakref.ref(tensor)

    def keep(grad):
        t = ref()
        if t is not None and grad is not None:
            t._accumulate(grad)

    keep.keeps_grad = True
    tensor.grad_fn._add_prehook(keep)


def zero_grads(params, set_to_none: bool) -> None:
    """Set each parameter's `.grad` to None, or fill it with zeros; one event for them all."""
    reset = []
    for p in params:
        if p._grad is None:
            continue
        if set_to_none:
            p._grad = None
        else:
            p._grad._storage()[...] = 0
        reset.append(p)
    if reset and events.observers:
        events.on_zero_grad(reset, set_to_none)


def register_hook(tensor, hook) -> RemovableHandle:
    """Run `hook(grad)` on the gradient arriving for `tensor`; a returned tensor replaces it."""
    from .tensor import make

    if not tensor.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    node = tensor.grad_fn if tensor.grad_fn is not None else tensor._accumulator()
    if tensor.grad_fn is None:
        tensor._hook_owner = node  # keep the AccumulateGrad (and its hooks) alive

    def on_grad(grad):
        out = hook(None if grad is None else make(grad))
        if out is None:
            return None
        if grad is not None and np.shape(out._data) != np.shape(grad):
            name = getattr(hook, "__name__", type(hook).__name__)
            raise RuntimeError(f"hook '{name}' has changed the size of value")
        return out._data

    return node._add_prehook(on_grad)


def register_post_accumulate(tensor, hook) -> RemovableHandle:
    """Run `hook(tensor)` once backward has added into a leaf's `.grad`."""
    if tensor.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    if not tensor.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    node = tensor._accumulator()
    tensor._hook_owner = node
    ref = weakref.ref(tensor)
    return node._add_prehook(PostHook(lambda grad_inputs, grad_outputs: hook(ref()) and None))
