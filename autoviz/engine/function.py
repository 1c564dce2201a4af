"""Backward nodes (`grad_fn`) and `autograd.Function`: the chain rule, one op at a time."""

import itertools
import weakref

import numpy as np

from . import events
from .grad_mode import _state

FREED = object()
FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)

# The nn.Modules whose forward is running, as one tuple per level (outermost first);
# nn.Module.__call__ pushes and pops. Empty outside modules, so ops there pay one test.
module_stack: list = []

# Like PyTorch's sequence_nr: later nodes run first when several are ready in backward.
_sequence = itertools.count()
next_seq = _sequence.__next__


class Node:
    """A backward function, what `tensor.grad_fn` holds; `next_functions` lead to the leaves."""

    # `_next` holds the node behind each input (None for a constant), not PyTorch's
    # (node, 0) pairs: one tuple per node instead of three, smaller and quicker to walk.
    # `_modules`: the nn.Modules running when the op was recorded, outermost first; set only
    # inside a module's forward (read with getattr(node, "_modules", ())). `_inputs`: the op's
    # inputs, kept only when one of them needs no gradient (a constant, a number), as the
    # graph has no node to reach it by (read with getattr(node, "_inputs", None)).
    __slots__ = (
        "__weakref__",
        "_inputs",
        "_modules",
        "_next",
        "_out",
        "_pre_hooks",
        "_saved",
        "_seq",
        "info",
    )

    def name(self) -> str:
        """PyTorch's name for this node, such as `MulBackward0`."""
        return type(self).__name__

    def __repr__(self) -> str:
        where = (
            "" if getattr(type(self), "_builtin", True) else "torch.autograd.function."
        )  # a user's Function
        return f"<{where}{type(self).__name__} object at {id(self):#x}>"

    def save_for_backward(self, *items) -> None:
        """Keep what backward needs; freed after backward unless retain_graph=True."""
        self._saved = items

    def mark_non_differentiable(self, *tensors) -> None:
        """Outputs that get no gradient: returned as constants."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize = value

    def mark_dirty(self, *tensors) -> None:
        """Inputs forward changed in place (autoviz records the result as a new tensor)."""

    @property
    def saved_tensors(self) -> tuple:
        if self._saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        return self._saved

    @property
    def next_functions(self) -> tuple:
        """A (node, input_nr) pair per input, as PyTorch has them; (None, 0) for a constant."""
        return tuple(
            [(fn, 0) if not isinstance(fn, Output) else (fn.node, fn.index) for fn in self._next]
        )

    @property
    def needs_input_grad(self) -> tuple:
        return tuple([fn is not None for fn in self._next])

    def _add_prehook(self, hook) -> "RemovableHandle":
        """Call `hook(grad)` (numpy data) on the incoming gradient before this node runs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(hook)
        return RemovableHandle(self._pre_hooks, hook)

    def register_prehook(self, hook) -> "RemovableHandle":
        """`hook(grad_outputs)` before this node runs; a returned tuple replaces them."""

        def before(grad):
            result = hook(as_outputs(grad))
            return None if result is None else as_received(grad, result)

        return self._add_prehook(before)

    def register_hook(self, hook) -> "RemovableHandle":
        """`hook(grad_inputs, grad_outputs)` after this node ran; a returned tuple replaces the
        gradients it passes on."""
        return self._add_prehook(PostHook(hook))

    @property
    def metadata(self) -> dict:
        """A dict of the user's own, kept with this node (torch's `grad_fn.metadata`)."""
        found = _METADATA.get(self)
        if found is None:
            found = _METADATA[self] = {}
        return found

    def __getattr__(self, name: str):
        """PyTorch's `_saved_self`, `_saved_other`, `_saved_result`, ...: what this node kept
        for backward, as tensors (the inputs themselves, the output with this node)."""
        key = name.removeprefix("_saved_")
        op = getattr(type(self), "_forward_cls", None)
        names = getattr(op, "_saved_names", ())
        if key != name and key == getattr(op, "_saved_number", None):  # a number it kept
            return object.__getattribute__(self, "info")
        if key == name or key not in names:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        saved = object.__getattribute__(self, "_saved")
        if saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        if names.index(key) in unneeded_saved(self):  # torch keeps none there
            return None
        item = saved[names.index(key)]
        if key == "result":
            return _tensor.make(item, True, self)
        inputs = {"self": 0, "input": 0, "other": 1, "mat2": 1, "exponent": 1}
        i = inputs.get(key)
        fn = self._next[i] if i is not None and i < len(self._next) else None
        if isinstance(fn, AccumulateGrad):
            return fn.variable
        if fn is not None and fn._out is item:
            return _tensor.make(item, True, fn)
        return _tensor.make(np.asarray(item))

    def _backward(self, grad) -> tuple:
        """Gradients for each input, as a tuple aligned with `next_functions`."""
        grads = self._forward_cls.backward(self, grad)
        return grads if type(grads) is tuple else (grads,)

    def _gradients(self, grad):
        """What backward calls: `_backward`, or for a built-in op its own backward, which may
        return one gradient rather than a 1-tuple (the engine wraps it)."""
        return self._backward(grad)


def unneeded_saved(node) -> tuple:
    """The positions of what `node` saved that torch would not have kept: Mul, Div, mm and
    addmm keep each input only for the other's gradient (their `_saved_for`)."""
    op = getattr(type(node), "_forward_cls", None)
    pairs = getattr(op, "_saved_for", ())
    if not pairs:
        return ()
    return tuple(op._saved_names.index(n) for n, other in pairs if node._next[other] is None)


_METADATA = weakref.WeakKeyDictionary()  # node -> its metadata dict, made on first use


class PostHook:
    """A hook run after its node: `hook(grad_inputs, grad_outputs)`, as torch calls it."""

    __slots__ = ("hook",)

    def __init__(self, hook) -> None:
        self.hook = hook

    def after(self, grads: tuple, grad, edges=()) -> tuple:
        """The hook on the node's gradients for its inputs (None for an input that needs
        none: a number, a constant, as torch computes none there) and for its output."""
        make = _tensor.make
        inputs = tuple(
            None if g is None or (i < len(edges) and edges[i] is None) else make(g)
            for i, g in enumerate(grads)
        )
        result = self.hook(inputs, as_outputs(grad))
        return grads if result is None else tuple(_data(g) for g in result)


def _data(value):
    return None if value is None else getattr(value, "_data", value)


class RemovableHandle:
    """Returned by register_hook: `.remove()` takes the hook off again."""

    def __init__(self, hooks: list, hook) -> None:
        self.hooks, self.hook = hooks, hook

    def remove(self) -> None:
        if self.hook in self.hooks:
            self.hooks.remove(self.hook)


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into `variable.grad`."""

    __slots__ = ("variable",)

    def __init__(self, variable) -> None:
        self.variable = variable
        self._next = ()
        self._saved = ()
        self._seq = float("inf")  # run as soon as ready, as PyTorch does
        self._pre_hooks = None
        self._out = None
        self.info = None

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def _backward(self, grad) -> tuple:
        self.variable._accumulate(grad)
        return ()


class Function:
    """Base of every differentiable op: static `forward(ctx, ...)` and `backward(ctx, grad)`."""

    _backward_name: str | None = None
    _node_slots = ()  # what a built-in op's node keeps besides Node's own

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("_backward_name") or cls.__name__ + "Backward"
        # torch's nodes are C++ classes (`<class 'MulBackward0'>`), a Function's are made in
        # torch.autograd.function: their types print so
        module = "builtins" if cls._builtin else "torch.autograd.function"
        body = {"_forward_cls": cls, "_builtin": cls._builtin, "__module__": module}
        if cls._builtin:
            body["__slots__"] = cls._node_slots  # built-in nodes are many: keep them small
            # The op's own backward(ctx, grad) as the node's method, the node being ctx: the
            # engine makes one call per node instead of two.
            body["_gradients"] = cls.backward
        else:
            body["_backward"] = _user_backward
        cpp = cls.__dict__.get("_cpp_name")  # torch's C++ nodes: `torch::autograd::CopySlices`
        if cpp:
            body["name"] = lambda self: cpp
        cls._backward_cls = type(name, (Node,), body)

    _builtin = False

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run forward on tensors and, when any input requires grad, record a node. Both of
        PyTorch's styles: forward(ctx, *args), or forward(*args) with setup_context(ctx,
        inputs, output)."""
        from .tensor import Tensor, as_tensor_data, wrap

        tensors = [a for a in args if isinstance(a, Tensor)]
        record = _state["enabled"] and any(t.requires_grad for t in tensors)
        node = new_node(cls, args) if record else NO_CONTEXT
        separate = cls.setup_context is not Function.setup_context
        with _no_grad(), events.unobserved():
            out = cls.forward(*args, **kwargs) if separate else cls.forward(node, *args, **kwargs)
            if separate:
                cls.setup_context(node, args, out)
        if isinstance(out, tuple):
            return _outputs(cls, node, out, args, record)
        if not isinstance(out, Tensor):
            out = wrap(as_tensor_data(out))
        if not record or out in getattr(node, "_non_differentiable", ()):
            return wrap(out._data) if record else out
        node._saved = getattr(node, "_saved", ())
        return attach(node, out._data, args)

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Override to save what backward needs when forward does not take ctx."""

    @classmethod
    def vjp(cls, ctx, *grad_outputs):
        return cls.backward(ctx, *grad_outputs)


def _outputs(cls, node, outs: tuple, args, record: bool) -> tuple:
    """A forward's several results: the tensors marked non-differentiable as constants, the
    differentiable ones recorded with the node (one of them: as its output; several: each
    through an Output of its own, so each one's gradient reaches backward in its place),
    anything else as it is."""
    from .tensor import Tensor, wrap

    if not record:
        return outs
    marked = getattr(node, "_non_differentiable", ())
    tensors = [i for i, o in enumerate(outs) if isinstance(o, Tensor)]
    live = [i for i in tensors if not any(o is outs[i] for o in marked)]
    results = [wrap(o._data) if i in tensors else o for i, o in enumerate(outs)]
    if not live:
        return tuple(results)
    node._saved = getattr(node, "_saved", ())
    node._several = [
        (np.shape(o._data), np.result_type(o._data)) if i in tensors else None
        for i, o in enumerate(outs)
    ]
    if len(live) == 1:
        node._position = live[0]
        results[live[0]] = attach(node, outs[live[0]]._data, args)
        return tuple(results)
    node._out = outs[live[0]]._data
    node._outs = [outs[i]._data if i in live else None for i in range(len(outs))]
    for i in live:
        results[i] = attach_output(node, i, outs[i]._data, args)
    return tuple(results)


def attach_output(node, index: int, data, inputs):
    """Wrap `data` as output `index` of a node with several; observers are told of `node`."""
    output = output_class(node._forward_cls)(node, index)
    output._out = data
    out = _tensor.make(data, True, output)
    if events.observers:
        events.on_op(node, out, inputs)
    return out


def output_class(cls) -> type:
    """The grad_fn class of the outputs of op `cls` when it has several, named as its node
    (made on first use: few ops have several outputs)."""
    made = cls.__dict__.get("_output_cls")
    if made is None:
        name = cls._backward_cls.__name__
        made = cls._output_cls = type(
            name, (Output,), {"__slots__": (), "__module__": cls._backward_cls.__module__}
        )
    return made


class Parts(tuple):
    """The gradients arriving at a node with several outputs, one slot per output (None
    where none has arrived); adding two adds them slot by slot."""

    __slots__ = ()

    def __add__(self, other) -> "Parts":
        return Parts(
            a if b is None else b if a is None else a + b for a, b in zip(self, other, strict=True)
        )


class Output(Node):
    """Output `index` of a node with several differentiable outputs (a custom Function's
    `return a, b`): the grad_fn its tensor holds, whose gradient it puts in the node's slot
    `index`. Users see the node through it: its name, hooks, saved tensors and edges."""

    __slots__ = ("index", "node")

    def __init__(self, node, index: int) -> None:
        self.node, self.index = node, index
        self._next = (node,)
        self._seq = node._seq  # runs right before its node, after every use of its output
        self._pre_hooks = None
        self._saved = ()
        self._out = None
        self.info = None

    def _add_prehook(self, hook) -> "RemovableHandle":
        """A hook on this output's gradient (a tensor hook, retain_grad) runs when its node
        does, on this output's part, as torch runs the tensor hooks of a node's outputs."""
        return self.node._add_prehook(_OnPart(self.index, hook))

    def _gradients(self, grad) -> tuple:
        parts = [None] * len(self.node._several)
        parts[self.index] = grad
        return (Parts(parts),)

    def name(self) -> str:
        return self.node.name()

    def __repr__(self) -> str:
        return repr(self.node)

    @property
    def next_functions(self) -> tuple:
        return self.node.next_functions

    def register_prehook(self, hook) -> "RemovableHandle":
        return self.node.register_prehook(hook)

    def register_hook(self, hook) -> "RemovableHandle":
        return self.node.register_hook(hook)

    def __getattr__(self, name: str):
        if name.startswith("_") and not name.startswith("_saved_"):
            raise AttributeError(f"'{self.name()}' object has no attribute '{name}'")
        return getattr(self.node, name)


class _OnPart:
    """A hook on one output's gradient, run on its slot of the node's gradients."""

    __slots__ = ("hook", "index")

    def __init__(self, index: int, hook) -> None:
        self.index, self.hook = index, hook

    def __call__(self, grad):
        result = self.hook(grad[self.index])
        if result is None:
            return None
        return Parts(result if i == self.index else g for i, g in enumerate(grad))


def as_outputs(grad) -> tuple:
    """The gradient(s) a node received as the tuple of tensors its hooks and a user's
    backward take, one per output (None where nothing arrived)."""
    make = _tensor.make
    if type(grad) is not Parts:
        return (grad if isinstance(grad, _tensor.Tensor) else make(grad),)
    return tuple(g if g is None or isinstance(g, _tensor.Tensor) else make(g) for g in grad)


def as_received(grad, outputs) -> object:
    """What hooks returned for `as_outputs(grad)`, back as the engine holds gradients."""
    if type(grad) is not Parts:
        return _data(outputs[0])
    return Parts(_data(g) for g in outputs)


def _grad_outputs(node, grad) -> tuple:
    """The gradients a user's backward takes: one per output of its forward (zeros, or None
    without materialize_grads, for the tensors nothing flowed back to; None for numbers)."""
    several = getattr(node, "_several", None)
    if several is None:
        return as_outputs(grad)
    if type(grad) is not Parts:
        parts = [None] * len(several)
        parts[node._position] = grad
        grad = Parts(parts)
    zeros = getattr(node, "_materialize", True)
    return tuple(
        g if g is not None or meta is None or not zeros else _tensor.make(np.zeros(*meta))
        for g, meta in zip(as_outputs(grad), several, strict=True)
    )


def user_backward(node, grad) -> tuple:
    """A user Function's backward on the gradients of its outputs, one per input."""
    grads = node._forward_cls.backward(node, *_grad_outputs(node, grad))
    grads = grads if isinstance(grads, tuple) else (grads,)
    missing = len(node._next) - len(grads)  # too few: the inputs left out get no gradient
    return grads + (None,) * missing


def _user_backward(node, grad) -> tuple:
    """A user Function's backward sees and returns tensors, as in PyTorch."""
    with _no_grad(), events.unobserved():
        grads = user_backward(node, grad)
    return tuple(getattr(g, "_data", g) for g in grads)


class _NoContext:
    """What forward gets as `ctx` when nothing is recorded: saving does nothing."""

    __slots__ = ()
    info = None

    def save_for_backward(self, *items) -> None:
        pass

    def mark_non_differentiable(self, *tensors) -> None:
        pass

    def set_materialize_grads(self, value) -> None:
        pass

    def mark_dirty(self, *tensors) -> None:
        pass

    def __setattr__(self, name, value) -> None:
        pass


NO_CONTEXT = _NoContext()


class _no_grad:
    def __enter__(self):
        self.prev = _state["enabled"]
        _state["enabled"] = False

    def __exit__(self, *exc):
        _state["enabled"] = self.prev


def next_node(value):
    """The node that carries gradient back to `value`: its grad_fn, the AccumulateGrad of a
    leaf that requires grad, or None for a constant."""
    fn = getattr(value, "grad_fn", None)
    if fn is not None:
        return fn
    if getattr(value, "requires_grad", False):
        return leaf_node(value)
    return None


def leaf_node(leaf) -> "AccumulateGrad":
    """accumulator_for(leaf), without its call when the AccumulateGrad exists already."""
    ref = leaf._acc
    acc = ref() if ref is not None else None
    return acc if acc is not None else accumulator_for(leaf)


def edge(value) -> tuple:
    """The (node, input_nr) pair that carries gradient back to `value`."""
    return (next_node(value), 0)


def new_node(cls, inputs) -> Node:
    """An unattached backward node for op `cls` with edges to `inputs`."""
    node = cls._backward_cls()
    count = len(inputs)
    if count == 2:  # most ops: spelled out, as tuple(map(...)) costs more than two calls
        a, b = next_node(inputs[0]), next_node(inputs[1])
        node._next = (a, b)
        if a is None or b is None:
            node._inputs = inputs
    elif count == 1:
        node._next = (next_node(inputs[0]),)
    else:
        node._next = nodes = tuple(map(next_node, inputs))
        if None in nodes:
            node._inputs = inputs
    node._seq = next_seq()
    node._pre_hooks = None
    node._saved = ()
    node.info = None
    if module_stack:
        node._modules = module_stack[-1]
    return node


def attach(node, data, inputs):
    """Wrap `data` as the output tensor of `node` and tell observers."""
    if _state["inference_used"]:
        refuse_saved_inference(node, inputs)
    out = _tensor.make(data, True, node)
    node._out = data
    if events.observers:
        events.on_op(node, out, inputs)
    return out


INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)


def refuse_saved_inference(node, inputs) -> None:
    """torch's error when an op recorded for backward keeps an inference tensor's values."""
    saved = node._saved if isinstance(node._saved, tuple) else ()
    for t in inputs:
        if getattr(t, "_inference", False) and any(item is t._data for item in saved):
            raise RuntimeError(INFERENCE_SAVED)


def accumulator_for(tensor) -> AccumulateGrad:
    """The AccumulateGrad node of a leaf, shared by every use while it is alive."""
    ref = tensor._acc
    acc = ref() if ref is not None else None
    if acc is None:
        acc = AccumulateGrad(tensor)
        tensor._acc = weakref.ref(acc)
    return acc


# Bound last: tensor.py imports this module, so whichever of the two is imported first, both
# are complete before `attach` runs. A module-level name, because an import statement inside
# `attach` costs about a microsecond on every op.
from . import tensor as _tensor  # noqa: E402
