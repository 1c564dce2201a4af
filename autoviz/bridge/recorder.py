"""Record a real torch program as a Timeline: a TorchFunctionMode sees forward, hooks on the
graph's nodes see torch's engine run backward. It logs the records autoviz's recorder logs, so
tracing.builder turns them into steps and captions the same way.

The log holds what the builder needs as it was when the op happened (values.Seen for every
tensor), never a tensor to be read later: torch may refuse that read (a view whose base
changed in place) or answer it differently.
"""

import inspect
import sys
import threading
from functools import cache, partial
from pathlib import Path

import torch
from torch.nn.modules import module as nn_module
from torch.optim import optimizer as optim_module
from torch.overrides import TorchFunctionMode

from ..tracing.builder import Recorded
from ..tracing.naming import StoredNames
from ..tracing.preview import Summary
from ..tracing.recorder import note_skipped, op_name
from ..tracing.symbols import ELEMENTWISE
from ..tracing.timeline import Timeline
from ..tracing.updates import update_rule
from .calls import (
    as_list,
    constant_value,
    kind_of,
    positional_constants,
    spare_constants,
    tensors_in,
)
from .modules import ModuleMap
from .saved import before_sums, has_arguments, saved_arguments, saved_tensors
from .values import (
    ACCUMULATE_GRAD,
    BROKEN,
    WATCHES,
    Seen,
    Unseen,
    Watch,
    grad_fn_of,
    identity,
    keep_gradient,
    made_inside,
    node_name,
    seen,
    tensor_preview,
    watched_preview,
)
from .view import TorchView

# Frames inside these are skipped when finding the user's line: autoviz, and torch's own Python
# (nn.Module.__call__, F.linear, optimizers), so a step points at `out = net(x)`.
_INTERNAL_DIRS = tuple(
    str(Path(module.__file__).resolve().parent) for module in (sys.modules["autoviz"], torch)
)
_INTERNAL = {}  # code object -> whether it is internal


class _FunctionApply:
    """torch.autograd.Function.apply routed through the recorder while it records (torch
    hands a Function's apply to no TorchFunctionMode); `remove()` puts torch's back."""

    def __init__(self, recorder) -> None:
        self.original = torch.autograd.Function.__dict__["apply"]
        function = self.original.__func__

        def apply(cls, *args, **kwargs):
            return recorder.apply(function, cls, args, kwargs)

        torch.autograd.Function.apply = classmethod(apply)

    def remove(self) -> None:
        torch.autograd.Function.apply = self.original


class _Mode(TorchFunctionMode):
    """Hands every torch function call to the recorder (calls made inside it are not seen)."""

    def __init__(self, recorder) -> None:
        super().__init__()
        self.recorder = recorder

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return self.recorder.call(func, args, kwargs or {})


class TorchRecorder:
    """Logs one record per thing torch did, in the format tracing.builder replays."""

    def __init__(self, frame) -> None:
        self.timeline = Timeline([], [], [])
        self.block_frame = frame
        self.log = []
        self.names = {}  # id(tensor) -> variable name
        self.pending = []  # (tensor, frame, the variable its instruction stores into)
        self.stored = StoredNames()
        self.known = {}  # id(grad_fn) -> grad_fn, for every node recorded (kept alive: ids stay)
        self.outputs = {}  # (id(grad_fn), output_nr) -> Seen facts of what it made (or Unseen)
        self.leaf_facts = {}  # id(leaf) -> its Seen facts, read at its first use
        self.handles = []  # hooks to remove when the block ends
        self.module_stack = []  # nn.Modules whose forward is running
        self.op_stacks = {}  # id(grad_fn) -> the modules running when it was made
        self.saved = {}  # id(grad_fn) -> its saved tensors, read before backward frees them
        self.arguments = {}  # id(grad_fn) -> what it used besides its inputs, as Seen or numbers
        self.params = {}  # id(grad_fn) -> its arguments (dim, keepdim), read while not freed
        self.stepping = None  # the frame of the optimizer step running: its work is one update
        self.callers = {}  # code object -> the caller's (file, line), as recorder._callers
        self.places = {}  # (code object, offset) -> (file, line, caller): see _where
        self.zeroing = None  # the frame of the zero_grad() whose grads are being reset
        self.locals = {}  # id(grad_fn) -> local derivatives, found before it ran on a zero
        self.zero_checked = set()  # id(grad_fn) of scalar elementwise ops (see _before_node)
        self.hooked = set()  # id of every node hooked, when a backward first reached it
        self.user_globals = {}  # id -> globals of the user's modules seen (a script run by the CLI)
        self.applying = 0  # custom autograd.Functions running: their inside is theirs
        self.active = False
        # The mode sees the calls of the thread that entered it only; hooks (modules,
        # optimizers, backward nodes) see every thread's and record this one's.
        self.thread = threading.get_ident()
        self.skipped = {}  # thread name -> hook calls of other threads, not recorded
        self.grad_memory = {}  # storage address -> {id(leaf): leaf} whose .grad was there
        self.grad_read = {}  # id(leaf) -> its .grad as last recorded

    def _other_thread(self) -> bool:
        """Whether a hook runs on another thread (then counted in `skipped`, not recorded)."""
        if threading.get_ident() == self.thread:
            return False
        name = threading.current_thread().name
        self.skipped[name] = self.skipped.get(name, 0) + 1
        return True

    # -- start and stop ----------------------------------------------------------------------------
    def start(self) -> Timeline:
        # Nodes numbered below this were made before the block: they are inputs, not steps.
        probe = torch.ones((), requires_grad=True).mul(1)
        self.floor = probe.grad_fn._sequence_nr() + 1
        self.handles += [
            nn_module.register_module_forward_pre_hook(self._enter_module),
            nn_module.register_module_forward_hook(self._exit_module, always_call=True),
            optim_module.register_optimizer_step_pre_hook(self._enter_step),
            optim_module.register_optimizer_step_post_hook(self._exit_step),
        ]
        self.handles.append(_FunctionApply(self))
        self.watch = Watch()  # the large results whose previews wait for a view
        WATCHES.append(self.watch)
        self.mode = _Mode(self)
        self.mode.__enter__()
        self.active = True
        return self.timeline

    def stop(self, error: BaseException | None = None) -> None:
        """Stop recording, name what the block's variables hold, then build on first use.
        `error`: what the block raised, if it did."""
        if isinstance(error, Exception):
            self._raised(error)
        self.active = False
        self.mode.__exit__(None, None, None)
        for handle in self.handles:
            handle.remove()
        self._name_pending()
        for fn in self.known.values():
            if not isinstance(fn, ACCUMULATE_GRAD):
                self._read_saved(fn)
        WATCHES.remove(self.watch)
        self.watch.secure_reachable()
        namespace = {}
        for scope in [*self.user_globals.values(), self.block_frame.f_globals]:
            namespace.update(scope)
        namespace.update(self.block_frame.f_locals)
        for name, value in namespace.items():
            if isinstance(value, torch.Tensor) and not name.startswith("_"):
                self.names.setdefault(id(value), name)
        modules = ModuleMap(namespace)
        op_modules = {key: modules.of_stack(stack) for key, stack in self.op_stacks.items()}
        view = TorchView(modules, op_modules, self.saved, self.arguments, self.params)
        log, names = self.log, self.names
        note_skipped(self.timeline, self.skipped, "autoviz.trace_torch()")
        self.timeline._pending = Recorded(lambda: log, names, view)
        self.log, self.block_frame, self.zeroing, self.callers = [], None, None, {}
        self.places = {}

    # -- where a call came from, and what it is called ---------------------------------------------
    def _where(self):
        frame, internal = sys._getframe(1), _INTERNAL
        while frame is not None:  # _is_internal, written out: every op walks a few frames
            inside = internal.get(frame.f_code)
            if inside is None:
                inside = _is_internal(frame.f_code)
            if not inside:
                break
            frame = frame.f_back
        frame = frame or self.block_frame
        if self.pending:
            self._name_pending()
        code = frame.f_code
        # (file, line, caller) found once per instruction of the user's code, and the code's
        # globals noted once (a loop's ops all come from a few places)
        place = (code, frame.f_lasti)
        src = self.places.get(place)
        if src is None:
            self.user_globals.setdefault(id(frame.f_globals), frame.f_globals)
            if code not in self.callers:
                self.callers[code] = self._caller(frame)
            src = self.places[place] = (code.co_filename, frame.f_lineno, self.callers[code])
        return frame, src

    def _caller(self, frame):
        """(file, line) of the user's line that called `frame`'s function (through torch's
        frames, such as nn.Module.__call__); None at the traced block's own level."""
        if frame is self.block_frame:
            return None
        caller = frame.f_back
        while caller is not None and caller is not self.block_frame:
            if not _is_internal(caller.f_code):
                return caller.f_code.co_filename, caller.f_lineno
            caller = caller.f_back
        return None

    def _expect_name(self, tensor, frame) -> None:
        target = self.stored.get(frame.f_code, frame.f_lasti)
        if target is not None:
            self.pending.append((tensor, frame, target))

    def _name_pending(self) -> None:
        for tensor, frame, target in self.pending:
            if frame.f_locals.get(target) is tensor:
                self.names.setdefault(id(tensor), target)
        self.pending.clear()

    # -- every torch function call -----------------------------------------------------------------
    def call(self, func, args, kwargs):
        kind = kind_of(func)
        if kind == "get" or (kind != "backward" and (self.applying or self._in_step())):
            return func(*args, **kwargs)
        if kind == "backward":
            return self._backward(func, args, kwargs)
        first = args[0] if args else None
        is_tensor = isinstance(first, torch.Tensor)
        retaining = is_tensor and first.retains_grad
        needed_grad = is_tensor and first.requires_grad
        grad_enabled = torch.is_grad_enabled()
        if self.watch.by_storage and _changes(func, kind, kwargs):
            self.watch.secure(tensors_in((args, kwargs)))
        try:
            out = func(*args, **kwargs)
        except Exception as error:
            self._failed(func, args, kwargs, error)
            raise
        if kind == "set":
            self.leaf_facts.pop(id(first), None)  # `w.data = ...`: another shape or storage
            if getattr(func.__self__, "__name__", "") == "grad":
                self._set_grad(*args[:2])
        elif kind == "retain":
            if grad_fn_of(first) not in (None, BROKEN) and not retaining:
                self._retain(first)
        elif kind == "detach":
            self._detach(first, out)
        else:
            self._after(func, kind, args, kwargs, out, grad_enabled, needed_grad)
        return out

    def apply(self, apply, cls, args, kwargs):
        """A custom autograd.Function's apply: one call, whose node (one or several outputs)
        is recorded as a torch function's is, and none of the ops its forward runs."""
        if not self.active or self.applying or threading.get_ident() != self.thread:
            return apply(cls, *args, **kwargs)
        grad_enabled = torch.is_grad_enabled()
        self.applying += 1
        try:
            out = apply(cls, *args, **kwargs)
        finally:
            self.applying -= 1
        self._after(apply, "call", args, kwargs, out, grad_enabled, False)
        return out

    def _after(self, func, kind, args, kwargs, out, grad_enabled, needed_grad) -> None:
        outs = tensors_in(out)
        new = self._new_nodes(outs) if grad_enabled and outs else []
        if new:
            self._ops(new, args, kwargs, outs)
        elif kind == "inplace":
            self._inplace(func, args)
        elif outs:
            inputs = tensors_in((args, kwargs))
            for t in outs:
                grad_fn = grad_fn_of(t)
                if any(t is i for i in inputs):
                    if kind == "requires_grad_" and t.requires_grad and not needed_grad:
                        self.leaf_facts.pop(id(t), None)
                        self._leaf(t)
                elif t.requires_grad and grad_fn is None:
                    self._leaf(t)
                elif grad_fn is None and inputs:
                    frame, src = self._where()
                    used = [identity(i) for i in inputs]
                    facts, value = seen(t), tensor_preview(t)
                    self.log.append(("untracked", src, facts, used, value, grad_enabled))
                    self._expect_name(t, frame)

    def _new_nodes(self, outs) -> list:
        """The grad_fn nodes this call made, in the order torch made them, each with its
        next_functions."""
        if len(outs) == 1:  # the usual call: one output, one node made over known ones
            fn = grad_fn_of(outs[0])
            if fn is None or fn is BROKEN or id(fn) in self.known:
                return []
            nexts = fn.next_functions
            if all(child is None or id(child) in self.known for child, _ in nexts):
                return [(fn, nexts)] if fn._sequence_nr() >= self.floor else []
        found, stack = {}, [grad_fn_of(t) for t in outs]
        while stack:
            fn = stack.pop()
            if fn is None or fn is BROKEN or id(fn) in found or id(fn) in self.known:
                continue
            if isinstance(fn, ACCUMULATE_GRAD) or fn._sequence_nr() < self.floor:
                continue
            found[id(fn)] = fn, fn.next_functions  # asked once: torch makes it anew each time
            stack.extend(child for child, _ in found[id(fn)][1])
        return sorted(found.values(), key=lambda pair: pair[0]._sequence_nr())

    # -- forward records ---------------------------------------------------------------------------
    def _leaf(self, t) -> None:
        frame, src = self._where()
        self.log.append(("leaf", src, self._leaf_seen(t), tensor_preview(t)))
        self._expect_name(t, frame)

    def _leaf_seen(self, t) -> Seen:
        """A leaf's facts, read once: nothing the builder reads of a leaf changes while it is
        one, but for `w.data = ...` and requires_grad_(), after which they are read again."""
        facts = self.leaf_facts.get(id(t))
        if facts is None:
            facts = self.leaf_facts[id(t)] = seen(t)
        return facts

    def _ops(self, new, args, kwargs, outs) -> None:
        frame, src = self._where()
        for t in outs:
            grad_fn = grad_fn_of(t)
            if grad_fn is not None and grad_fn is not BROKEN:
                self.outputs[(id(grad_fn), t.output_nr)] = seen(t, value=True)
        by_edge = _ByEdge(args, kwargs)
        stack = tuple(self.module_stack)
        # Arguments that need no gradient can fill (None, 0) slots of one node only: with
        # several such nodes (or none) nothing says which slot is which argument.
        gaps = [fn for fn, nexts in new if any(child is None for child, _ in nexts)]
        for fn, nexts in new:
            self.known[id(fn)] = fn
            out = self.outputs.get((id(fn), 0))
            if out is None:  # made inside the call and never returned (W.t() in F.linear)
                out = self.outputs[(id(fn), 0)] = Unseen(fn)
            inputs, constants = self._inputs(nexts, args, by_edge, gaps == [fn], src)
            value = out.value if type(out) is Seen else made_inside(fn)
            self.log.append(("op", src, fn, out, inputs, constants, value))
            for t in outs:  # the node's later outputs (split's pieces), each a record
                if t.output_nr and grad_fn_of(t) is fn:
                    later = self.outputs[(id(fn), t.output_nr)]
                    self.log.append(("op", src, fn, later, inputs, constants, later.value))
            self.op_stacks[id(fn)] = stack  # its saved tensors are read later (_read_saved)
            name = node_name(fn)
            # Kept only for ops that have them (the view reads none for the others).
            if name == "RsubBackward1" or has_arguments(fn):
                self.arguments[id(fn)] = _arguments(fn, args)
            if TorchView.has_params(fn):
                self.params[id(fn)] = TorchView.read_params(fn)
            if name in ELEMENTWISE and not out.shape:  # scalars only, as _before_node
                self.zero_checked.add(id(fn))
            for child, _ in nexts:
                if isinstance(child, ACCUMULATE_GRAD) and id(child) not in self.known:
                    self.known[id(child)] = child
        if type(out) is Seen:
            self._expect_name(out._held, frame)

    def _inputs(self, nexts, args, by_edge, spare: bool, src) -> tuple:
        """One input per entry of a node's next_functions `nexts` (a leaf, an earlier output, a
        constant or None), and the values of those that may change later in the block: a
        leaf's at its first use (its node outlives every graph), a constant's. A later output
        of a node recorded before, made inside one call (an LSTM's last states), is recorded
        as that node's output when first used."""
        constants = positional_constants(nexts, args)
        if constants is None and spare:
            constants = spare_constants(nexts, args)
        inputs, values = [], []
        for index, (child, nr) in enumerate(nexts):
            value = None
            if child is None:
                item = constants[index] if constants else None
                if isinstance(item, torch.Tensor):
                    item, value = seen(item), constant_value(item)
                else:
                    value = item
            elif isinstance(child, ACCUMULATE_GRAD):
                leaf = child.variable
                item = self.leaf_facts.get(id(leaf))
                if item is None:
                    item, value = self._leaf_seen(leaf), tensor_preview(leaf)
            else:
                key = (id(child), nr)
                item = self.outputs.get(key)
                if item is None:
                    known = by_edge.get(key)
                    item = seen(known) if known is not None else Unseen(child, nr)
                    self.outputs[key] = item
                    if nr and id(child) in self.known:
                        self.log.append(("op", src, child, item, [], None, None))
            inputs.append(item)
            values.append(value)
        return inputs, values

    def _retain(self, t) -> None:
        _, src = self._where()
        self.log.append(("retain", src, identity(t)))
        self.handles.append(t.grad_fn.register_prehook(partial(self._on_retained, t)))

    def _detach(self, source, out) -> None:
        frame, src = self._where()
        self.log.append(("detach", src, identity(source), seen(out), tensor_preview(out)))
        self._expect_name(out, frame)

    def _inplace(self, func, args) -> None:
        _, src = self._where()
        targets = args[0] if args and isinstance(args[0], list | tuple) else args[:1]
        zero = func.__name__ in ("zero_", "_foreach_zero_")
        for t in targets:
            if not isinstance(t, torch.Tensor):
                continue
            if zero and self._reset_grad(t, src, False):
                continue
            # A view's change is its base's (`v = w[:2]; v.mul_(2)` changes w)
            for changed in (t,) if t._base is None else (t, t._base):
                self._changed("zero" if zero else "inplace", src, changed)

    def _changed(self, kind, src, t) -> None:
        """Log that `t` changed in place, unless the record before said just that (the
        __setitem__ after `params[:2] -= ...`, whose __isub__ already changed params)."""
        facts, value = seen(t, storage=True), tensor_preview(t)  # `w.data` is told by storage
        last = self.log[-1] if self.log else None
        repeated = last is not None and last[:2] == (kind, src) and last[3] == value
        if repeated and last[2].key == facts.key:
            return
        self.log.append((kind, src, facts, value))

    def _set_grad(self, t, value) -> None:
        _, src = self._where()
        if value is None and self._reset_grad(t, src, True):
            return
        new = None if value is None else identity(value)
        self.log.append(("set_grad", src, identity(t), new, tensor_preview(value)))

    def _reset_grad(self, t, src, set_to_none: bool) -> bool:
        """A grad reset by zero_grad(): one record for every parameter it resets, as
        autoviz's engine sends one event. `t` is the parameter (`p.grad = None`) or its grad
        (`p.grad.zero_()`). False when no zero_grad() is running."""
        frame = _zero_grad_frame()
        if frame is None:
            return False
        if set_to_none:
            owner, value = t, None
        else:
            owner = self._grad_owners().get(id(t))
            if owner is None:
                return False
            value = tensor_preview(t)
        last = self.log[-1] if self.log else None
        if last is not None and last[0] == "zero_grad" and self.zeroing is frame:
            last[2].append(identity(owner))
            last[3].append(value)
        else:
            self.log.append(("zero_grad", src, [identity(owner)], [value], set_to_none))
            self.zeroing = frame
        return True

    def _grad_owners(self) -> dict:
        """id(a .grad tensor) -> the leaf it belongs to, for the leaves the log has seen."""
        owners = {}
        for fn in self.known.values():
            if isinstance(fn, ACCUMULATE_GRAD) and fn.variable.grad is not None:
                owners[id(fn.variable.grad)] = fn.variable
        return owners

    # -- optimizer steps ---------------------------------------------------------------------------
    def _enter_step(self, optimizer, args, kwargs) -> None:
        if self._other_thread():
            return
        self.stepping = sys._getframe(1)  # torch's wrapper around the step, until it returns
        self.watch.secure(p for group in optimizer.param_groups for p in group["params"])

    def _in_step(self) -> bool:
        """Whether an optimizer step is running: a step that raised never calls its post-hook,
        so the wrapper's frame must still be on the stack."""
        if self.stepping is None:
            return False
        frame = sys._getframe(2)
        while frame is not None and frame is not self.stepping:
            frame = frame.f_back
        if frame is None:
            self.stepping = None
        return frame is not None

    def _exit_step(self, optimizer, args, kwargs) -> None:
        """One update record per parameter the step changed, as autoviz's optimizers send.
        (Still `stepping` meanwhile: this hook runs under the recorder's mode, so the previews'
        own torch calls would be recorded.)"""
        if self._other_thread():
            return
        _, src = self._where()
        for group in optimizer.param_groups:
            rule = update_rule(type(optimizer).__name__, group)
            for p in group["params"]:
                if p.grad is not None:
                    self.log.append(("update", src, identity(p), watched_preview(p), rule))
        self.stepping = None

    # -- the program raised ------------------------------------------------------------------------
    def _failed(self, func, args, kwargs, error, roots=None) -> None:
        """A torch call raised: the op, given its tensors, drawn red; for a backward through
        a freed graph, the node whose saved tensors were gone."""
        self.stepping = None
        _, src = self._where()
        node = _freed_node(roots) if roots else None
        if node is not None and id(node) in self.known:
            failed = (node, None, [], ())
        else:
            tensors = [seen(t, value=True) for t in tensors_in((args, kwargs))]
            failed = (None, op_name(getattr(func, "__name__", "call")), tensors, ())
            if self.module_stack:
                failed = (*failed[:3], tuple(self.module_stack))
        self.log.append(("error", src, *failed, type(error).__name__, str(error)))
        self.failed = error

    def _raised(self, error) -> None:
        """The block raised outside any torch call (a Python error in the user's code)."""
        if error is getattr(self, "failed", None):
            return
        tb, src = error.__traceback__, None
        while tb is not None:
            if not _is_internal(tb.tb_frame.f_code):
                src = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
            tb = tb.tb_next
        self.log.append(("error", src, None, None, [], (), type(error).__name__, str(error)))

    # -- backward ----------------------------------------------------------------------------------
    def _backward(self, func, args, kwargs):
        _, src = self._where()
        bound = _signature(func).bind(*args, **kwargs).arguments
        if func is torch.Tensor.backward:
            roots, grads = [bound["self"]], [bound.get("gradient")]
        else:
            roots = as_list(bound.get("tensors", bound.get("outputs")))
            grads = as_list(bound.get("grad_tensors", bound.get("grad_outputs")))
        grads = grads if grads else [None] * len(roots)
        seeds = [
            (grad_fn_of(t), tensor_preview(g) if g is not None else tensor_preview(torch.ones(())))
            for t, g in zip(roots, grads, strict=False)
            if isinstance(t, torch.Tensor) and grad_fn_of(t) not in (None, BROKEN)
        ]
        self.log.append(("seed", src, seeds))
        self._hook([fn for fn, _ in seeds])
        try:
            result = func(*args, **kwargs)
        except Exception as error:
            self._failed(func, args, kwargs, error, roots)
            raise
        retain = bound.get("retain_graph")
        retain = bound.get("create_graph", False) if retain is None else retain
        self.log.append(("end", None, bool(retain)))
        return result

    def _hook(self, tops) -> None:
        """Hook the recorded nodes a backward from `tops` reaches, when it first does: forward
        pays nothing for them (a graph that never runs backward needs none), and a node hooked
        once keeps its hooks, as do the nodes under it (none made later is under it)."""
        stack = list(tops)
        while stack:
            fn = stack.pop()
            if fn is None or id(fn) in self.hooked or id(fn) not in self.known:
                continue  # hooked already, or made before the block
            self.hooked.add(id(fn))
            if isinstance(fn, ACCUMULATE_GRAD):
                self.handles.append(fn.register_hook(partial(self._on_accumulate, fn)))
                continue
            self.handles.append(fn.register_hook(partial(self._on_node, fn)))
            self._read_saved(fn)  # before this backward frees them
            if id(fn) in self.zero_checked:
                self.handles.append(fn.register_prehook(partial(self._before_node, fn)))
            stack.extend(child for child, _ in fn.next_functions)

    def _read_saved(self, fn) -> None:
        """What op node `fn` saved for backward, read once, before backward frees it (or when
        the block ends): torch refuses to hand out a saved tensor changed in place since, so
        what is read is what was saved, or nothing."""
        if id(fn) not in self.saved:
            self.saved[id(fn)] = saved_tensors(fn)

    def _before_node(self, fn, grad_outputs) -> None:
        """A scalar op about to run on a zero gradient: its local derivatives are not
        contribution / upstream, so run the node on 1 (as autoviz's recorder does)."""
        (upstream,) = grad_outputs
        zero = upstream is not None and upstream.dim() == 0 and upstream == 0
        if self.active and zero and not self._other_thread():
            ones = fn(torch.ones_like(upstream))
            ones = (ones,) if isinstance(ones, torch.Tensor) else ones  # one input: no tuple
            self.locals[id(fn)] = [tensor_preview(g) for g in ones]

    def _on_node(self, fn, grad_inputs, grad_outputs) -> None:
        if self.active and not self._other_thread():
            grads = [keep_gradient(g) for g in grad_inputs]
            local = self.locals.pop(id(fn), None)
            if len(grad_outputs) > 1:  # a node of several outputs: the gradient of each
                several = tuple(map(keep_gradient, grad_outputs))
                self.log.append(("node", None, fn, several, grads, local, None))
                return
            upstream = grad_outputs[0]
            full = before_sums(fn, upstream, grad_inputs)
            self.log.append(("node", None, fn, keep_gradient(upstream), grads, local, full))

    def _on_accumulate(self, acc, grad_inputs, grad_outputs) -> None:
        if self.active and not self._other_thread():
            self._accumulated(acc.variable, grad_outputs[0])

    def _on_retained(self, t, grad_outputs) -> None:
        # Node pre-hooks run after retain_grad's hook has set t.grad, as autoviz's engine does.
        if self.active and not self._other_thread():
            self._accumulated(t, grad_outputs[0])

    def _accumulated(self, t, incoming) -> None:
        grad = t.grad
        total = self.grad_read[id(t)] = tensor_preview(grad)
        shared = []
        for other in self._sharing(t, grad):  # those whose value changed with it, read now
            now = tensor_preview(other.grad)
            if not _same(now, self.grad_read.get(id(other))):
                self.grad_read[id(other)] = now
                shared.append((identity(other), now))
        record = (identity(t), identity(grad), keep_gradient(incoming), total)
        self.log.append(("accumulate", None, *record, shared))

    def _sharing(self, t, grad) -> list:
        """The other tensors whose .grad is the memory `grad` was just added into: torch hands
        a leaf the gradient buffer backward made without a copy where nothing else holds it,
        and `torch.stack([a, b]).sum()` makes both leaves' grads views of one element. Then
        `+=` into one grad changes the other, and the timeline shows what torch has."""
        if grad is None or grad.layout != torch.strided:
            return []
        address = grad.untyped_storage().data_ptr()
        holders = self.grad_memory.setdefault(address, {})
        holders[id(t)] = t
        return [
            o
            for o in holders.values()
            if o is not t
            and o.grad is not None
            and o.grad.untyped_storage().data_ptr() == address
            and _overlap(o.grad, grad)
        ]

    # -- nn.Module forward hooks -------------------------------------------------------------------
    def _enter_module(self, module, args) -> None:
        if not self._other_thread():
            self.module_stack.append(module)

    def _exit_module(self, module, args, output) -> None:
        if not self._other_thread() and self.module_stack and self.module_stack[-1] is module:
            self.module_stack.pop()


def _same(a, b) -> bool:
    """Whether two previews are equal (a large tensor's Summary by its fields)."""
    if type(a) is Summary and type(b) is Summary:
        return a.to_dict() == b.to_dict()
    return type(a) is not Summary and type(b) is not Summary and a == b


def _span(t) -> tuple:
    """The bytes of storage tensor `t` reaches, first to last."""
    start = t.data_ptr()
    last = sum((size - 1) * step for size, step in zip(t.shape, t.stride(), strict=True))
    return start, start + (last + 1) * t.element_size()


def _overlap(a, b) -> bool:
    """Whether two tensors on one storage reach a byte in common (as ranges: a strided pair
    that interleaves counts too, and then shows a value that did not change)."""
    if not a.numel() or not b.numel():
        return False
    (a0, a1), (b0, b1) = _span(a), _span(b)
    return a0 < b1 and b0 < a1


# Calls that hand out a tensor's memory for the caller to change (numpy shares it).
_SHARING = frozenset(["numpy", "__array__", "__dlpack__"])


def _changes(func, kind: str, kwargs: dict) -> bool:
    """Whether a call may change its tensor arguments' values: an in-place method, an `out=` or
    `inplace=True` argument, or a view of the memory handed to numpy."""
    if kind == "inplace" or "out" in kwargs or kwargs.get("inplace"):
        return True
    if getattr(getattr(func, "_schema", None), "is_mutable", False):  # torch.ops.aten.mul_
        return True
    return getattr(func, "__name__", "") in _SHARING


class _ByEdge(dict):
    """(id(grad_fn), output_nr) -> the call's tensor argument it stands for; found only when
    an input is not an output recorded before (the usual one is), once per call."""

    def __init__(self, args, kwargs) -> None:
        super().__init__()
        self.call = (args, kwargs)

    def get(self, key, default=None):
        if self.call is not None:
            for t in tensors_in(self.call):
                grad_fn = grad_fn_of(t)
                if grad_fn is not None and grad_fn is not BROKEN:
                    self[(id(grad_fn), t.output_nr)] = t
            self.call = None
        return super().get(key, default)


def _arguments(fn, args) -> list:
    """What `fn` used besides its inputs, read now (backward frees saved values): the
    exponent of `t ** 2`, nll_loss's labels; the number of `1 - t`, which torch keeps no
    trace of, from the call's arguments."""
    if node_name(fn) == "RsubBackward1":
        return [a for a in args[1:2] if isinstance(a, int | float)]
    return [seen(a, value=True) if isinstance(a, torch.Tensor) else a for a in saved_arguments(fn)]


def _freed_node(roots):
    """The node a backward through a freed graph fails at: the first, in torch's order
    (latest made first), whose saved tensors backward has freed."""
    found, stack = {}, [t.grad_fn for t in roots if getattr(t, "grad_fn", None) is not None]
    while stack:
        fn = stack.pop()
        if fn is not None and id(fn) not in found and not isinstance(fn, ACCUMULATE_GRAD):
            found[id(fn)] = fn
            stack += [child for child, _ in fn.next_functions]
    for fn in sorted(found.values(), key=lambda f: -f._sequence_nr()):
        for attr in (a for a in dir(fn) if a.startswith("_saved_")):
            try:
                getattr(fn, attr)
            except RuntimeError:
                return fn
    return None


def _zero_grad_frame():
    """The frame of the optimizer's or module's zero_grad() running now, if any."""
    frame = sys._getframe(2)
    while frame is not None and _is_internal(frame.f_code):
        if frame.f_code.co_name == "zero_grad":
            return frame
        frame = frame.f_back
    return None


@cache
def _signature(func) -> inspect.Signature:
    """backward's signature, read once (inspect builds it anew each time it is asked)."""
    return inspect.signature(func)


def _is_internal(code) -> bool:
    inside = _INTERNAL.get(code)
    if inside is None:
        inside = _INTERNAL[code] = code.co_filename.startswith(_INTERNAL_DIRS)
    return inside
