"""Every quiz answer is the program's own fact at that step: each question's answer, recorded on
autoviz's engine and through the PyTorch bridge, against the same program run on plain torch
(its gradients caught by hooks, its .grad and parameters read after each backward and step)."""

import contextlib
import warnings

import numpy as np
import pytest

import autoviz
from autoviz.tracing.index import index_of
from autoviz.tracing.quiz import questions

torch = pytest.importorskip("torch")


class Spy:
    """What plain torch says, per iteration: the gradient each named tensor receives (a hook,
    which changes nothing), each leaf's .grad after backward, each value after an update."""

    def __init__(self) -> None:
        self.it, self.sent, self.shapes, self.after = 0, {}, {}, {}
        self.values, self.has, self.reset = {}, {}, {}
        self.tensors = {}

    def keep(self, **named) -> None:
        for name, t in named.items():
            self.tensors[name] = t
            self.shapes[(self.it, name)] = tuple(t.shape)
            if t.requires_grad and t.grad_fn is not None:
                t.register_hook(self._catch(self.it, name))

    def _catch(self, it, name):
        def hook(grad):
            self.sent[(it, name)] = self.sent.get((it, name), 0) + grad.detach().double().numpy()

        return hook

    def backward_done(self) -> None:
        with warnings.catch_warnings():  # .grad of a non-leaf: None, and a warning saying so
            warnings.simplefilter("ignore")
            for name, t in self.tensors.items():
                grad = t.grad
                self.has[(self.it, name)] = grad is not None
                if t.grad_fn is None and grad is not None:
                    self.after[(self.it, name)] = grad.detach().double().numpy().copy()

    def updated(self, **params) -> None:
        for name, p in params.items():
            self.values[(self.it, name)] = p.detach().double().numpy().copy()

    def zeroed(self, **params) -> None:
        for name, p in params.items():
            self.reset[(self.it, name)] = "None" if p.grad is None else "zeros"

    def next(self) -> None:
        self.it += 1


class Quiet:
    """The spy's stand-in while tracing: the traced program is the plain one, hooks aside."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def mlp(T, trace, spy):
    """The issue's MLP: Sequential(Linear(3, 8), Tanh, Linear(8, 1)), SGD, 3 iterations."""
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(3, 8), T.nn.Tanh(), T.nn.Linear(8, 1))
    opt = T.optim.SGD(net.parameters(), lr=0.1)
    x, y = T.randn(4, 3), T.randn(4, 1)
    params = dict(net.named_parameters())
    params = {f"net.{name}": p for name, p in params.items()}
    with trace() as tl:
        for _ in range(3):
            out = net(x)
            diff = out - y
            loss = (diff**2).mean()
            spy.keep(out=out, diff=diff, loss=loss, x=x, y=y, **params)
            loss.backward()
            spy.backward_done()
            opt.step()
            spy.updated(**params)
            opt.zero_grad()
            spy.zeroed(**params)
            spy.next()
    return tl


def lesson(T, trace, spy):
    """The lesson's scalar z = w * x + b: upstream × local, then each leaf's grad."""
    x = T.tensor(2.0, requires_grad=True)
    w = T.tensor(3.0, requires_grad=True)
    b = T.tensor(1.0, requires_grad=True)
    with trace() as tl:
        y = w * x
        z = y + b
        spy.keep(x=x, w=w, b=b, y=y, z=z)
        z.backward()
        spy.backward_done()
    return tl


def broadcast(T, trace, spy):
    """relu(x * w + b): a bias broadcast over rows, relu's dead units, a sum."""
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = T.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], requires_grad=True)
    b = T.tensor([0.1, 0.2, -0.3], requires_grad=True)
    with trace() as tl:
        xw = x * w
        pre = xw + b
        h = T.relu(pre)
        out = h.sum()
        spy.keep(x=x, w=w, b=b, xw=xw, pre=pre, h=h, out=out)
        out.backward()
        spy.backward_done()
    return tl


def accumulate(T, trace, spy):
    """Two backwards without zero_grad, retain_grad, detach, a manual update, grad.zero_()."""
    w = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
    x = T.tensor([0.5, 1.0, 2.0])
    with trace() as tl:
        for i in range(2):
            if i:
                spy.next()
            h = w * x
            h.retain_grad()
            d = h.detach()
            sq = h * h
            loss = sq.sum() + d.sum()
            spy.keep(w=w, x=x, h=h, d=d, sq=sq, loss=loss)
            loss.backward()
            spy.backward_done()
        with T.no_grad():  # in the last iteration's graph
            w -= 0.1 * w.grad
        spy.updated(w=w)
        w.grad.zero_()
        spy.zeroed(w=w)
    return tl


def softmax_regression(T, trace, spy):
    """cross_entropy on logits = X @ W + bias, manual SGD under no_grad, grads set to None."""
    T.manual_seed(1)
    X = T.randn(6, 3)
    labels = T.tensor([0, 2, 1, 1, 0, 2])
    W = (T.randn(3, 3) * 0.5).requires_grad_()
    bias = T.zeros(3, requires_grad=True)
    with trace() as tl:
        for _ in range(2):
            logits = X @ W + bias
            loss = T.nn.functional.cross_entropy(logits, labels)
            spy.keep(X=X, W=W, bias=bias, logits=logits, loss=loss)
            loss.backward()
            spy.backward_done()
            with T.no_grad():
                W -= 0.5 * W.grad
                bias -= 0.5 * bias.grad
            spy.updated(W=W, bias=bias)
            W.grad = None
            bias.grad = None
            spy.next()
    return tl


def wide_layer(T, trace, spy):
    """A layer past the preview limit: 30 × 20 weights, a batch of 16."""
    T.manual_seed(2)
    layer = T.nn.Linear(20, 30)
    x = T.randn(16, 20)
    with trace() as tl:
        act = layer(x).tanh()
        total = act.sum()
        spy.keep(
            x=x, act=act, total=total, **{"layer.weight": layer.weight, "layer.bias": layer.bias}
        )
        total.backward()
        spy.backward_done()
    return tl


PROGRAMS = [lesson, mlp, broadcast, accumulate, softmax_regression, wide_layer]


def run_plain(program) -> Spy:
    spy = Spy()
    program(torch, contextlib.nullcontext, spy)
    return spy


def traced(program, engine: str):
    if engine == "torch":
        return program(torch, autoviz.trace_torch, Quiet())
    return program(autoviz, autoviz.trace, Quiet())


def fact(tl, q, spy: Spy):
    """What plain torch says the answer is, or None where the spy saw no such fact."""
    index = index_of(tl)
    it = tl.steps[q.step].details.get("graph", 0)
    what, *rest = q.about
    if what == "has_grad":
        ids, _ = rest
        names = [index.by_id[i].name for i in ids]
        known = {n: spy.has[(it, n)] for n in names if (it, n) in spy.has}
        return known if len(known) >= 2 else None  # those the program named (not t1, xᵀ)
    name = index.by_id[rest[0]].name
    at = rest[1] if len(rest) > 1 else ()
    if what == "shape":
        return spy.shapes.get((it, name))
    if what == "grad_reset":
        return spy.reset.get((it, name))
    if what == "value":
        found = spy.values.get((it, name))
        return None if found is None else float(found[at])
    if what == "dims":  # torch's broadcasting rule, over the shape the gradient arrives in
        big, small = tuple(tl.steps[q.step].details["from_shape"]), spy.shapes.get((it, name))
        if small is None:
            return None
        assert tuple(torch.broadcast_shapes(small, big)) == big
        lead = len(big) - len(small)
        return tuple(
            d for d in range(len(big)) if d < lead or (small[d - lead] == 1 and big[d] != 1)
        )
    if what in ("grad", "grad_sign"):
        found = spy.after.get((it, name))
        return None if found is None else float(found[at])
    if what == "grad_sum":
        found = _leaf_share(spy, it, name)
        return None if found is None else float(found[at])
    if what in ("sent", "sent_sign", "sent_zero"):
        consumers = [e for e in tl.edges if e.source == rest[0] and e.kind == "data"]
        mine = [e for e in consumers if index.by_id[e.target].graph == it]
        if len(mine) != 1:
            return None  # used twice: the hook sees the sum of what both uses send
        found = spy.sent.get((it, name))
        if found is None and index.by_id[rest[0]].kind == "leaf":
            found = _leaf_share(spy, it, name)
        return None if found is None else float(np.asarray(found)[at])
    raise AssertionError(f"a question about {what!r} that this test cannot check")


def _leaf_share(spy, it, name):
    """What this pass added to a leaf's .grad."""
    now = spy.after.get((it, name))
    if now is None:
        return None
    reset = (it - 1, name) in spy.reset  # zero_grad() or .zero_() since the last backward
    before = None if reset else spy.after.get((it - 1, name))
    return now if before is None else now - before


def agrees(q, truth) -> bool:
    if q.form == "choices":
        return all((name in q.answer) == has for name, has in truth.items())
    if q.form == "number":
        return q.same(truth, q.answer)
    if q.form == "choice" and q.about[0] in ("sent_sign", "grad_sign"):
        return q.answer == ("positive" if truth > 0 else "negative" if truth < 0 else "zero")
    if q.form == "choice" and q.about[0] == "sent_zero":
        return q.answer == ("yes" if truth == 0 else "no")
    return q.answer == truth


@pytest.mark.parametrize("engine", ["autoviz", "torch"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_every_answer_is_what_torch_computes(program, engine, pure_engine):
    spy = run_plain(program)
    tl = traced(program, engine)
    asked = questions(tl)
    checked, kinds = 0, set()
    for q in asked.values():
        truth = fact(tl, q, spy)
        if truth is None:
            continue
        assert agrees(q, truth), (program.__name__, engine, q.step, q.prompt, q.answer, truth)
        checked += 1
        kinds.add(q.kind)
    assert checked >= min(5, len(asked)), (checked, len(asked))
    if program is lesson:
        assert kinds == {"scalar", "which-grad"} and checked == len(asked) == 6
    if program is wide_layer:  # a 600-element grad: its first elements (the Summary's) asked
        assert {"element", "sign", "shape", "which-grad", "broadcast"} <= kinds
    if program is mlp:  # the program: most kinds, checked
        assert {"shape", "element", "which-grad", "update", "accumulation", "broadcast"} <= kinds


def test_the_two_engines_ask_the_same_questions(pure_engine):
    for program in PROGRAMS:
        ours, theirs = traced(program, "autoviz"), traced(program, "torch")
        a, b = questions(ours), questions(theirs)
        assert [q.prompt for q in a.values()] == [q.prompt for q in b.values()], program
        for q, r in zip(a.values(), b.values(), strict=True):
            assert q.same(q.answer, r.answer) if q.form == "number" else q.answer == r.answer
