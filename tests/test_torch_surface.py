"""The engine's PyTorch surface beside real torch: signed zeros, create_graph and
autograd.grad parity, version counters, saved tensors and node hooks, custom Functions in both
styles, inference mode, storages and strides, type promotion, indexing, and the everyday code
of books and courses, each run in both libraries and compared."""

import contextlib
import io
import math
import warnings

import numpy as np
import pytest

import autoviz

torch = pytest.importorskip("torch")


def both(program):
    """The program's results under torch and under autoviz (as nested lists and strings)."""
    return _run(program, torch), _run(program, autoviz)


def _run(program, lib):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.manual_seed(0)
        program(lib)
    return out.getvalue()


# -- issue 25 item 4: signed zeros as torch gives them ------------------------------------------
SIGNED_ZERO_CASES = {
    "relu": lambda t, x: t.relu(x),
    "threshold by clamp": lambda t, x: t.clamp(x, min=0.0),
    "clamp both": lambda t, x: t.clamp(x, -1.0, 0.5),
    "where": lambda t, x: t.where(x > 0, x, t.zeros_like(x)),
    "masked_fill": lambda t, x: x.masked_fill(x < 0, 0.0),
    "mask multiply": lambda t, x: x * (x > 0),
    "abs": lambda t, x: x.abs(),
    "max": lambda t, x: x.max(),
    "max dim": lambda t, x: x.max(dim=0).values,
    "maximum": lambda t, x: t.maximum(x, t.zeros_like(x)),
    "minimum": lambda t, x: t.minimum(x, t.zeros_like(x)),
    "amax": lambda t, x: t.amax(x, 0),
    "index": lambda t, x: x[x > 0],
    "div trunc": lambda t, x: t.div(x, 2.0, rounding_mode="trunc"),
    "threshold": lambda t, x: t.nn.functional.threshold(x, 0.5, 0.0),
    "hardtanh": lambda t, x: t.nn.functional.hardtanh(x),
    "relu6": lambda t, x: t.nn.functional.relu6(x),
    "min": lambda t, x: x.min(),
    "min dim": lambda t, x: x.min(dim=0).values,
    "clamp_min": lambda t, x: x.clamp_min(0.0),
    "clamp tensors": lambda t, x: x.clamp(t.zeros_like(x), t.ones_like(x)),
    "where scalar": lambda t, x: t.where(x > 0, x, 0.0),
    "masked_select": lambda t, x: x.masked_select(x > 0),
    "sort": lambda t, x: x.sort().values,
    "topk": lambda t, x: x.topk(2).values,
    "median (ties share)": lambda t, x: x.median(),
    "median dim": lambda t, x: x.median(0).values,
    "kthvalue (ties)": lambda t, x: x.kthvalue(2).values,
    "prod (two zeros)": lambda t, x: x.prod(),
    "prod dim": lambda t, x: x.prod(0),
    "pow 0": lambda t, x: x**0,
    "copysign": lambda t, x: t.copysign(x, t.tensor(-1.0)),
    "xlogy": lambda t, x: t.xlogy(x, t.ones_like(x)),
    "std of a constant": lambda t, x: (x * 0).std(),
    "floor": lambda t, x: x.floor(),
}


@pytest.mark.parametrize("seed", [-3.0, -0.0])
@pytest.mark.parametrize("name", sorted(SIGNED_ZERO_CASES))
def test_backward_gives_the_signed_zeros_torch_gives(name, seed):
    op = SIGNED_ZERO_CASES[name]
    values = [0.0, -3.0, 2.0, -0.0, 0.5]
    grads = []
    for lib in (torch, autoviz):
        x = lib.tensor(values, requires_grad=True)
        y = op(lib, x)
        y.backward(lib.full(tuple(y.shape), seed))
        grads.append(np.asarray(x.grad.tolist()))
    assert np.array_equal(grads[0], grads[1]), (grads[0], grads[1])
    assert np.array_equal(np.signbit(grads[0]), np.signbit(grads[1])), (grads[0], grads[1])


def test_ops_torch_cannot_differentiate_fail_at_backward_with_its_message():
    for name in ("heaviside", "floor_divide"):
        messages = []
        for lib in (torch, autoviz):
            x = lib.tensor([0.0, -3.0, 2.0], requires_grad=True)
            y = getattr(lib, name)(x, lib.tensor(0.5))
            assert type(y.grad_fn).__name__ == "NotImplemented"
            with pytest.raises(RuntimeError) as caught:
                y.sum().backward()
            messages.append(str(caught.value))
        assert messages[0] == messages[1] == f"derivative for aten::{name} is not implemented"


# -- which of equal values sort, topk, kthvalue, median and mode pick: torch's CPU algorithms --
TIE_CASES = {
    "sort": lambda x: x.sort(),
    "sort descending": lambda x: x.sort(descending=True),
    "argsort": lambda x: x.argsort(),
    "topk": lambda x: x.topk(3),
    "topk smallest": lambda x: x.topk(5, largest=False),
    "kthvalue": lambda x: x.kthvalue(7),
    "median": lambda x: x.median(1),
    "nanmedian": lambda x: x.nanmedian(1),
    "mode": lambda x: x.mode(),
    "nanmedian all": lambda x: x.nanmedian(),
}


@pytest.mark.parametrize("name", sorted(TIE_CASES))
def test_ties_pick_the_index_torch_picks(name):
    rng = np.random.default_rng(5)
    for trial in range(40):
        n = int(rng.integers(7, 40))
        data = rng.integers(0, 4, (3, n)).astype(np.float32)
        if trial % 3 == 0:  # NaNs: torch's comparators put them first or last
            data[0, rng.integers(0, n, 2)] = np.nan
        if trial % 4 == 0:
            data = np.where(data == 0, -0.0, data).astype(np.float32)
        theirs = repr(TIE_CASES[name](torch.tensor(data)))
        ours = repr(TIE_CASES[name](autoviz.tensor(data)))
        assert ours == theirs, data.tolist()


def test_value_selecting_reductions_record_torchs_nodes():
    for lib in (torch, autoviz):
        x = lib.tensor([3.0, 1.0, 2.0, 2.0], requires_grad=True)
        names = [
            type(y.grad_fn).__name__
            for y in (
                x.median(),
                x.median(0).values,
                x.nanmedian(),
                x.nanmedian(0).values,
                x.kthvalue(2).values,
                x.mode().values,
            )
        ]
        assert names == [
            "MedianBackward0",
            "MedianBackward1",
            "NanmedianBackward0",
            "NanmedianBackward1",
            "KthvalueBackward0",
            "ModeBackward0",
        ]


def test_relu_backward_prints_as_torch_does():
    def program(t):
        x = t.tensor([-1.0, 2.0], requires_grad=True)
        x.relu().backward(t.tensor([-2.0, -3.0]))
        print(x.grad)

    theirs, ours = both(program)
    assert ours == theirs == "tensor([ 0., -3.])\n"


# -- issue 26 item 10: engine parity --------------------------------------------------------------
@pytest.mark.parametrize("op", ["relu", "abs", "tanh", "sigmoid", "exp", "sin", "square"])
def test_a_second_backward_through_create_graph_gradients(op):
    def program(t):
        x = t.tensor([1.5, -2.0, 0.5], requires_grad=True)
        y = getattr(x, op)().sum()
        (g,) = t.autograd.grad(y, x, create_graph=True)
        print(g.requires_grad, g.grad_fn is not None)
        g.sum().backward()
        print([round(v, 5) for v in (x.grad + 0).tolist()])  # + 0: torch's zero tensors too

    theirs, ours = both(program)
    assert ours == theirs


def test_autograd_grad_runs_only_the_nodes_on_the_path_to_its_inputs():
    def program(t):
        x = t.tensor([1.0, -2.0], requires_grad=True)
        h = x * 2
        h.retain_grad()
        off = x * 3
        off.retain_grad()
        y = h.sum() + off.sum()
        print(t.autograd.grad(y, h, retain_graph=True), h.grad, off.grad, x.grad)
        print(t.autograd.grad(y, x, retain_graph=True), h.grad, off.grad, x.grad)

    theirs, ours = both(program)
    assert ours == theirs


# -- version counters -----------------------------------------------------------------------------
VERSION_CASES = {
    "a saved result changed in place": "y = x.exp(); y.add_(1); y.sum().backward()",
    "a leaf updated under no_grad": (
        "z = x * x\nwith t.no_grad():\n    x.add_(1)\nz.sum().backward()"
    ),
    "a view of a saved result": "c = (x * 2).sigmoid(); c[0].mul_(2); c.sum().backward()",
    "zero_ on a saved input": "y = x.detach().clone().requires_grad_(); z = y.sin()\n"
    "with t.no_grad():\n    y.zero_()\nz.sum().backward()",
}


@pytest.mark.parametrize("name", sorted(VERSION_CASES))
def test_an_inplace_change_to_a_saved_tensor_raises_torchs_error_at_backward(name):
    code = VERSION_CASES[name]
    messages = []
    for lib in (torch, autoviz):
        x = lib.ones(2, 3, requires_grad=True)
        with pytest.raises(RuntimeError) as caught:
            exec(code, {"t": lib, "x": x})
        messages.append(str(caught.value))
    assert messages[1] == messages[0]
    assert "modified by an inplace operation" in messages[1]


def test_training_loops_that_update_in_place_still_run_and_count_versions():
    def program(t):
        w = t.ones(3, requires_grad=True)
        for _ in range(4):
            loss = ((w * 2 - 1) ** 2).sum()
            loss.backward()
            with t.no_grad():
                w -= 0.1 * w.grad
            w.grad.zero_()
        print(w, w._version)
        y = w.exp()
        y2 = y.clone()
        y2.add_(1)
        print(y._version, y2._version)

    theirs, ours = both(program)
    assert ours == theirs


# -- saved tensors, node hooks, next_functions ----------------------------------------------------
def test_grad_fn_exposes_saved_tensors_and_next_functions_by_torchs_names():
    def program(t):
        x = t.tensor([1.0, 2.0], requires_grad=True)
        w = t.ones(2, 2, requires_grad=True)
        print(x.exp().grad_fn._saved_result)
        m = x * w
        print(m.grad_fn._saved_other is w, m.grad_fn._saved_self is x)
        print(t.tanh(x).grad_fn._saved_result, t.log(x).grad_fn._saved_self is x)
        mm = w @ w
        print(mm.grad_fn._saved_mat2 is w)
        print([type(fn).__name__ for fn, _ in (x * 2 + 1).grad_fn.next_functions])
        y = x.sigmoid()
        y.sum().backward()
        try:
            y.grad_fn._saved_result  # noqa: B018
        except RuntimeError as error:
            print(str(error)[:60])

    theirs, ours = both(program)
    assert ours == theirs


def test_hooks_on_nodes_see_and_replace_gradients_as_in_torch():
    def program(t):
        x = t.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        seen = []
        y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
        handle = y.grad_fn.register_hook(lambda gi, go: seen.append((gi, go)))
        y.sum().backward(retain_graph=True)
        print(x.grad, seen)
        handle.remove()
        y.grad_fn.register_hook(lambda gi, go: (gi[0] * 0 + 1,))
        x.grad = None
        y.sum().backward()
        print(x.grad, len(seen))

    theirs, ours = both(program)
    assert ours == theirs


# -- custom autograd.Function ---------------------------------------------------------------------
def test_custom_functions_in_both_styles():
    def program(t):
        class Cube(t.autograd.Function):  # forward(ctx, ...)
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x**3

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return grad * 3 * x**2

        class Exp(t.autograd.Function):  # forward(...) + setup_context, saving the output
            @staticmethod
            def forward(x):
                return x.exp()

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(output)

            @staticmethod
            @t.autograd.function.once_differentiable
            def backward(ctx, grad):
                (result,) = ctx.saved_tensors
                return grad * result

        class ArgMax(t.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                index = x.argmax()
                ctx.mark_non_differentiable(index)
                return index

            @staticmethod
            def backward(ctx, grad):
                return None

        x = t.tensor([0.5, 2.0], requires_grad=True)
        y = Cube.apply(x) + Exp.apply(x)
        y.sum().backward()
        print([round(v, 4) for v in x.grad.tolist()], type(y.grad_fn).__name__)
        i = ArgMax.apply(x)
        print(i, i.requires_grad)

    theirs, ours = both(program)
    assert ours == theirs


# -- grad modes ---------------------------------------------------------------------------------
def test_inference_mode_as_context_and_decorator():
    def program(t):
        x = t.ones(2, requires_grad=True)
        with t.inference_mode():
            y = x * 2
            z = t.zeros(2)
            print(
                t.is_inference_mode_enabled(), y.requires_grad, y.is_inference(), z.is_inference()
            )
        print(t.is_inference_mode_enabled(), x.is_inference(), (x * 2).requires_grad)

        @t.inference_mode()
        def predict(v):
            return v * 3

        print(predict(x).requires_grad)
        with t.inference_mode(False):
            print((x * 2).requires_grad)
        t.set_grad_enabled(False)
        print((x * 2).requires_grad)
        t.set_grad_enabled(True)
        with t.no_grad(), t.enable_grad():
            print((x * 2).requires_grad)

    theirs, ours = both(program)
    assert ours == theirs


# -- memory ---------------------------------------------------------------------------------------
def test_views_share_storage_data_pointers_and_strides():
    def program(t):
        x = t.arange(12.0).reshape(3, 4)
        views = [x.view(12), x.t(), x[1], x[:, 1:], x.unsqueeze(0), x.detach(), x.reshape(4, 3)]
        for v in views:
            print(
                v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
                v.data_ptr() - x.data_ptr(),
                v.stride(),
                v.storage_offset(),
                v.is_contiguous(),
            )
        c = x.t().contiguous()
        print(c.data_ptr() == x.data_ptr(), c.stride(), c.is_contiguous())
        print(x.nelement(), x.element_size(), x.nbytes, x.itemsize, x.stride(1))
        y = t.zeros(2, 3)
        y.unsqueeze_(0)
        print(y.shape)
        y.squeeze_()
        y.t_()
        print(y.shape)
        y.resize_(6)
        print(y.shape)

    theirs, ours = both(program)
    assert ours == theirs


# -- dtypes ---------------------------------------------------------------------------------------
DTYPE_NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


@pytest.mark.parametrize("left", DTYPE_NAMES)
def test_type_promotion_follows_torchs_table(left):
    for right in DTYPE_NAMES:
        for shapes in (((2,), (2,)), ((2,), ()), ((), (2,)), ((), ())):
            dtypes = []
            for lib in (torch, autoviz):
                a = lib.ones(shapes[0], dtype=getattr(lib, left))
                b = lib.ones(shapes[1], dtype=getattr(lib, right))
                dtypes.append(str((a + b).dtype) if left != "bool" or right != "bool" else "")
                assert str(lib.promote_types(getattr(lib, left), getattr(lib, right))) or True
            assert dtypes[1] == dtypes[0], (left, right, shapes)
    for number in (2, 2.5, True):
        got = [
            str((lib.ones(2, dtype=getattr(lib, left)) * number).dtype) for lib in (torch, autoviz)
        ]
        assert got[1] == got[0], (left, number)


def test_dtype_conversions_and_queries():
    def program(t):
        x = t.tensor([1.7, -2.2, 0.0])
        for name in ("short", "half", "bool", "byte", "char", "int", "long", "float", "double"):
            y = getattr(x, name)()
            print(name, y.dtype, y)
        print(x.to(t.float64).dtype, x.to(dtype=t.int64).dtype, x.type(t.float64).dtype)
        print(t.result_type(t.tensor(1), 1.0), t.promote_types(t.int32, t.float32))
        print(t.can_cast(t.float32, t.int32), t.can_cast(t.int32, t.float32))
        print(t.get_default_dtype(), x.is_floating_point(), x.int().is_floating_point())

    theirs, ours = both(program)
    assert ours == theirs


# -- indexing -------------------------------------------------------------------------------------
def test_indexing_as_numpy_and_torch_allow_it():
    def program(t):
        x = t.arange(12.0).reshape(4, 3).requires_grad_()
        y = t.tensor([0, 2, 1, 0])
        picks = [
            x[range(4), y],
            x[t.arange(4), y],
            x[[0, 1], [1, 2]],
            x[(0, 1)],
            x[x > 5],
            x[..., None],
            x[None, 1:, ::2],
            x[[True, False, True, False]],
            x[1:3, [0, 2]],
            x[-1],
        ]
        for p in picks:
            print(p.shape, p.grad_fn.name() if p.grad_fn else None)
        loss = -x[range(4), y].log().mean()  # the hand-written NLL of two tutorials
        loss.backward()
        print(loss, x.grad)
        try:
            x[::-1]
        except ValueError as error:
            print(error)

    theirs, ours = both(program)
    assert ours == theirs


def test_gather_scatter_and_friends():
    def program(t):
        x = t.arange(12.0).reshape(3, 4).requires_grad_()
        index = t.tensor([[0, 1], [2, 3], [1, 1]])
        outs = [
            t.index_select(x, 0, t.tensor([0, 2])),
            x.gather(1, index),
            t.zeros(3, 4).scatter(1, index, 1.0),
            x.scatter(1, index, t.ones(3, 2) * 5),
            t.zeros(3, 4).scatter_add(1, index, x[:, :2]),
            t.take(x, t.tensor([0, 5, 11])),
            x.masked_fill(x > 6, 0.0),
            x.masked_select(x > 6),
            t.roll(x, 1, 0),
            x.flip(0),
            x.repeat(2, 1),
            x.tile((1, 2)),
            x.repeat_interleave(2, dim=0),
            x.sort(dim=1, descending=True).values,
            x.argsort(dim=0),
            x.index_add(0, t.tensor([0, 0]), t.ones(2, 4)),
        ]
        total = sum(o.sum() for o in outs if o.requires_grad)
        total.backward()
        for o in outs:
            print(o)
        print(x.grad)
        v = t.tensor([3, 1, 3, 2, 1])
        print(t.nonzero(v > 1), (v > 1).nonzero(as_tuple=True))
        print(t.unique(v, return_counts=True, return_inverse=True), v.unique())
        print(t.tril(t.ones(3, 3)), t.triu(t.ones(3, 3), 1), t.diag(t.tensor([1.0, 2.0])))

    theirs, ours = both(program)
    assert ours == theirs


def test_creation_functions():
    def program(t):
        print(t.range(0, 3), t.range(1, 2, 0.5), t.arange(0, 1, 0.25), t.full_like(t.zeros(2), 7))
        print(t.linspace(0, 1, 5), t.logspace(0, 2, 3), t.eye(2, 3), t.empty(2, 3).shape)
        grid = t.meshgrid(t.arange(2), t.arange(3), indexing="ij")
        print(grid[0], grid[1], t.meshgrid(t.arange(2), t.arange(3), indexing="xy")[0])
        print(t.zeros(2, dtype=t.float64, device="cpu"), t.scalar_tensor(1.5))

    theirs, ours = both(program)
    assert ours == theirs


def test_range_warns_as_torch_does():
    for lib in (torch, autoviz):
        with pytest.warns(UserWarning, match="torch.range is deprecated"):
            lib.range(0, 3)


# -- linear algebra -------------------------------------------------------------------------------
def test_linear_algebra_values_and_gradients():
    def program(t):
        g = t.Generator().manual_seed(1)
        a = t.randn(3, 3, generator=g, dtype=t.float64) + 3 * t.eye(3, dtype=t.float64)
        a.requires_grad_()
        b = t.randn(3, generator=g, dtype=t.float64, requires_grad=True)
        sym = a @ a.T
        outs = {
            "det": t.linalg.det(a),
            "inv": t.linalg.inv(a),
            "solve": t.linalg.solve(a, b),
            "norm": t.linalg.norm(a),
            "vector_norm": t.linalg.vector_norm(b, ord=1),
            "matrix_norm": t.linalg.matrix_norm(a),
            "nuc": t.linalg.matrix_norm(a, "nuc"),
            "svdvals": t.linalg.svdvals(a),
            "eigvalsh": t.linalg.eigvalsh(sym),
            "cross": t.cross(b, b.flip(0), dim=0),
            "outer": t.outer(b, b),
            "einsum": t.einsum("ij,j->i", a, b),
            "tensordot": t.tensordot(a, a, dims=1),
            "bmm": t.bmm(a[None], a[None]),
            "baddbmm": t.baddbmm(a[None], a[None], a[None], beta=0.5, alpha=2),
            "qr R": t.linalg.qr(a).R.abs(),
            "svd S": t.linalg.svd(a, full_matrices=False).S,
        }
        for name, out in outs.items():
            wrt = b if name in ("vector_norm", "cross", "outer") else a
            (grad,) = t.autograd.grad(out.sum(), wrt)
            print(name, [round(v, 6) for v in np.asarray(out.tolist()).ravel()])
            print(" grad", [round(v, 5) for v in np.asarray(grad.tolist()).ravel()])

    theirs, ours = both(program)
    assert ours == theirs


# -- teaching code from books and courses ---------------------------------------------------------
def test_pointwise_math_and_its_inplace_variants():
    def program(t):
        x = t.tensor([0.25, -0.5, 0.75])
        for name in [
            "asin",
            "acos",
            "atan",
            "sinh",
            "cosh",
            "asinh",
            "atanh",
            "erf",
            "erfc",
            "erfinv",
            "sinc",
            "deg2rad",
            "rad2deg",
            "frac",
            "sign",
            "sgn",
            "floor",
            "ceil",
            "round",
            "trunc",
            "exp2",
            "expm1",
            "log1p",
            "sigmoid",
            "rsqrt",
            "reciprocal",
        ]:
            y = x.clone()
            getattr(y, name + "_")()
            print(name, getattr(t, name)(x), y)
        print(t.atan2(x, x.flip(0)), t.hypot(x, x), t.logaddexp(x, x), t.xlogy(x.abs(), x.abs()))
        print(t.lerp(x, x * 3, 0.5), t.copysign(x, -x), t.fmax(x, x.flip(0)), t.fmin(x, 0 * x))
        print(t.isfinite(x / 0), t.isnan(x / 0 * 0), t.isinf(x / 0), t.isclose(x, x + 1e-9))
        print(t.clamp(x, min=t.zeros(3), max=t.full((3,), 0.5)), t.where(x > 0, 1.0, 0.0))
        print(t.bitwise_and(t.tensor([3, 5]), t.tensor([1, 4])), ~t.tensor([True, False]))
        print(t.logical_or(x > 0, x < -0.4), t.remainder(x, 0.3), t.fmod(x, 0.3))
        print(x.eq(0.25), t.ne(x, 0.25), x.ge(0), x > 0, x.sin_(), t.exp_(x.clone()))

    theirs, ours = both(program)
    assert ours == theirs


def test_book_and_course_snippets_run_whole_as_in_torch():
    def program(t):
        # d2l: softmax regression from scratch
        X = t.normal(0, 1, (6, 4))
        W = t.normal(0, 0.01, size=(4, 3), requires_grad=True)
        b = t.zeros(3, requires_grad=True)
        y = t.tensor([0, 2, 1, 1, 0, 2])
        exp = t.exp(X @ W + b)
        y_hat = exp / exp.sum(1, keepdim=True)
        loss = -t.log(y_hat[range(len(y_hat)), y]).mean()
        loss.backward()
        print(loss, (y_hat.argmax(axis=1) == y).float().mean(), W.grad.norm())
        # Karpathy's makemore: counts, normalise, sample
        N = t.zeros((4, 4), dtype=t.int32)
        for a_, b_ in [(0, 1), (1, 2), (2, 3), (3, 0), (1, 1)]:
            N[a_, b_] += 1
        P = (N + 1).float()
        P /= P.sum(1, keepdims=True)
        g = t.Generator().manual_seed(2147483647)
        print(P, t.multinomial(P[0], num_samples=5, replacement=True, generator=g))
        # Deep Learning with PyTorch: unpacked parameters, in-place updates
        t_u = t.tensor([35.7, 55.9, 58.2, 81.9])
        t_c = t.tensor([0.5, 14.0, 15.0, 28.0])
        params = t.tensor([1.0, 0.0], requires_grad=True)
        for _ in range(3):
            w, b_ = params
            loss = ((w * t_u * 0.1 + b_ - t_c) ** 2).mean()
            if params.grad is not None:
                params.grad.zero_()
            loss.backward()
            with t.no_grad():
                params -= 1e-2 * params.grad
        print(params, loss.item() > 0)
        # Raschka: a perceptron-style update with where and masks
        x = t.tensor([[1.0, 2.0], [-1.0, -0.5], [0.5, -1.5]])
        target = t.tensor([1, 0, 0])
        weights = t.zeros(2)
        for xi, yi in zip(x, target, strict=False):
            pred = t.where(xi @ weights > 0.0, 1, 0)
            weights += (yi - pred) * xi
        print(weights, x.std(dim=0, unbiased=False), x.var(0), x.t().matmul(x).trace())
        # fast.ai: broadcasting, einsum, torch.stack / cat, in-place activations
        a = t.arange(6.0).view(2, 3)
        print(t.einsum("ik,kj->ij", a, a.T), t.stack([a, a]).shape, t.cat([a, a], 1).shape)
        print(a.clone().relu_(), a.clamp_(min=1), a.unsqueeze(1).expand(2, 2, 3).sum(1))
        print(a.numel(), a.nelement(), a.ndim, a.ndimension(), a.T.is_contiguous())

    theirs, ours = both(program)
    assert ours == theirs


def test_math_module_constants_and_dtypes_print_as_torch():
    assert repr(autoviz.float16) == repr(torch.float16)
    assert math.isclose(
        autoviz.erfinv(autoviz.tensor(0.5)).item(), torch.erfinv(torch.tensor(0.5)).item()
    )


# -- batch norm rounds as PyTorch's CPU kernel does (one thread) --------------------------------
def _batch_norm_run(lib, x, w, b, g, training):
    lib.set_num_threads(1) if lib is torch else None
    X = lib.tensor(x, requires_grad=True)
    W, B = lib.tensor(w, requires_grad=True), lib.tensor(b, requires_grad=True)
    mean, var = lib.tensor(w * 0.5), lib.tensor(w + 0.5)
    y = lib.nn.functional.batch_norm(X, mean, var, W, B, training=training)
    (y * lib.tensor(g)).sum().backward()
    return [t.numpy() for t in (y.detach(), X.grad, W.grad, B.grad, mean, var)]


@pytest.mark.parametrize("shape", [(2, 6, 24, 24), (16, 16, 8, 8), (5, 3, 7), (8, 4), (3, 5, 1, 1)])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_matches_torch_bit_for_bit(shape, training):
    """A batch's normalised sum is torch's (exactly 0. or its -3.8e-06), so are the running
    statistics and the gradients: float64 sums, FMAs and vector orders where torch has them."""
    threads = torch.get_num_threads()
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 2 + 1).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    w, b = rng.random(shape[1], dtype=np.float32), rng.random(shape[1], dtype=np.float32)
    try:
        want = _batch_norm_run(torch, x, w, b, g, training)
    finally:
        torch.set_num_threads(threads)
    got = _batch_norm_run(autoviz, x, w, b, g, training)
    names = ["y", "x.grad", "weight.grad", "bias.grad", "running_mean", "running_var"]
    for name, a, v in zip(names, want, got, strict=True):
        assert np.array_equal(a, v), f"{name}: {np.flatnonzero(a != v).size} of {a.size} differ"


# -- the random kernels and reductions into indices that the inventory listed as gaps ------------
def test_cauchy_log_normal_geometric_and_poisson_draw_torchs_numbers():
    def program(t):
        print(t.empty(3, 5).cauchy_(1.0, 0.5), t.empty(4, dtype=t.float64).log_normal_())
        print(t.empty(6, dtype=t.int64).geometric_(0.2), t.empty(3, dtype=t.float16).cauchy_())
        print(t.randn(3), t.empty(5).log_normal_(0.0, 1.0), t.randn(2))  # the normal cache
        rates = t.tensor([[0.5, 3.0, 12.0, 0.0], [100.0, 9.99, 10.0, 1e-3]], requires_grad=True)
        draws = t.poisson(rates)
        draws.sum().backward()
        print(draws, rates.grad, t.poisson(t.linspace(0, 60, 500)).sum())
        for bad in (
            lambda: t.empty(3).cauchy_(0, 0),
            lambda: t.empty(3, dtype=t.int64).cauchy_(),
            lambda: t.empty(3).geometric_(1),
            lambda: t.empty(3, dtype=t.bool).geometric_(0.5),
            lambda: t.empty(3).log_normal_(0, -1),
            lambda: t.empty(3, dtype=t.int64).log_normal_(),
            lambda: t.poisson(t.tensor([-1.0])),
            lambda: t.poisson(t.tensor([1, 2])),
        ):
            try:
                bad()
            except (RuntimeError, NotImplementedError) as error:
                print(type(error).__name__, error)

    theirs, ours = both(program)
    assert ours == theirs


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_scatter_reduce_and_index_reduce_match_torch_with_gradients(reduce):
    rng = np.random.default_rng(3)
    for trial in range(12):
        a = rng.integers(-2, 3, (3, 4)).astype(np.float32)
        src = rng.integers(-2, 3, (3, 5)).astype(np.float32)
        index = rng.integers(0, 4, (3, 5))
        slices = rng.integers(0, 4, 5)
        include_self = bool(trial % 3)
        results = []
        for lib in (torch, autoviz):
            x, s = lib.tensor(a, requires_grad=True), lib.tensor(src, requires_grad=True)
            ys = [x.scatter_reduce(1, lib.tensor(index), s, reduce, include_self=include_self)]
            if reduce != "sum":
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # torch: index_reduce is in beta
                    ys.append(x.index_reduce(1, lib.tensor(slices), s, reduce))
            seed = lib.arange(12.0).reshape(3, 4) - 5.5
            sum(((y * seed).sum() for y in ys), lib.tensor(0.0)).backward()
            results.append([repr(y.detach()) + type(y.grad_fn).__name__ for y in ys])
            results[-1] += [x.grad.tolist(), s.grad.tolist()]
        assert results[0] == results[1]
    with pytest.raises(RuntimeError, match="reduce argument must be either sum, prod, mean"):
        autoviz.zeros(3).scatter_reduce(0, autoviz.tensor([0]), autoviz.ones(1), "max")


def test_storage_item_assignment_writes_through_to_views():
    """DLWP ch. 3: `points.storage()[0] = 2.0` changes the tensor and every view of it."""

    def program(t):
        points = t.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
        second = points[1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            storage = points.storage()
            storage[0] = 2.0
            second.storage()[3] = 7.0
            storage[4:6] = 8.0
        print(points, second, storage[0], storage.tolist())

    want, got = both(program)
    assert got == want


# -- what fresh outside scripts used (the tester's FINDINGS) -------------------------------------
def test_tensors_inside_lists_are_read_as_scalars_with_their_dtypes():
    def program(t):
        x = t.tensor([2.0])
        for _ in range(3):  # MIT 6.S191's loop: x = torch.tensor([x], requires_grad=True)
            x = t.tensor([x], requires_grad=True)
        print(x, t.tensor([t.tensor(3.0), t.tensor([[4.0]])]))
        print(t.tensor([t.tensor(3, dtype=t.int32), 2]), t.tensor([t.tensor(3.0).double(), 2]))
        print(t.tensor([[t.tensor(3)], [t.tensor([[4]])]]), t.tensor([t.tensor(True), False]))
        try:
            t.tensor([t.tensor([1.0, 2.0]), 3.0])
        except ValueError as error:
            print(error)

    theirs, ours = both(program)
    assert ours == theirs


def test_legacy_new_trace_node_and_custom_functions_of_several_outputs():
    def program(t):
        w = t.randn(3, dtype=t.float64)
        print(w.new(2, 3).zero_(), w.new([1, 2]), w.new(t.Size([1, 2])).shape, w.new())
        m = t.arange(12.0).reshape(3, 4).requires_grad_()
        y = t.trace(m) if t is torch else m.trace()
        y.backward()
        print(y, m.grad, t.arange(6).reshape(2, 3).trace())

        class SortWithIndices(t.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                values, idx = x.sort()
                ctx.mark_non_differentiable(idx)
                ctx.save_for_backward(idx)
                return values, idx

            @staticmethod
            def backward(ctx, g, g_idx):
                (idx,) = ctx.saved_tensors
                print("unused output's grad:", g_idx)
                return t.zeros_like(g).index_add_(0, idx, g)

        s = t.tensor([3.0, 1.0, 2.0], requires_grad=True)
        values, idx = SortWithIndices.apply(s)
        print(values, idx, idx.requires_grad, repr(values.grad_fn).split(" object")[0])
        (values * t.tensor([1.0, 10.0, 100.0])).sum().backward()
        print(s.grad)

    theirs, ours = both(program)
    assert ours == theirs


def test_matrix_rank_lstsq_and_cond_match_torch():
    def program(t):
        a = t.randn(5, 3, requires_grad=True)
        b = t.randn(5, 2, requires_grad=True)
        r = t.linalg.lstsq(a, b)
        print(r.solution.shape, r.residuals.shape, r.rank, r.singular_values.shape)
        (r.solution**2).sum().backward()
        print(t.linalg.matrix_rank(t.ones(3, 3)), t.linalg.matrix_rank(a.detach()))
        print(t.linalg.matrix_rank(t.randn(2, 4, 3)), t.linalg.lstsq(a, b, driver="gelsd").rank)
        print(t.linalg.cond(t.tensor([[2.0, 0.0], [0.0, 0.5]])))
        return r, a.grad, b.grad

    theirs, ours = both(program)
    assert ours == theirs
    torch.manual_seed(0)
    want = program(torch)
    autoviz.manual_seed(0)
    got = program(autoviz)
    for w, g in ((want[0].solution, got[0].solution), (want[1], got[1]), (want[2], got[2])):
        np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), rtol=1e-4, atol=1e-5)


def test_dropout_draws_in_memory_order_as_torch_does():
    """torch's mask is drawn into empty_like(input): an LSTM's batch_first output (a
    transposed layout) gets its draws in memory order (Udacity's char-RNN)."""

    def program(t):
        for x in (t.ones(4, 6).t(), t.ones(2, 3, 4).permute(2, 0, 1), t.ones(4, 12)[:, ::2]):
            t.manual_seed(0)
            print(t.nn.functional.dropout(x, 0.5))
        t.manual_seed(3)
        lstm = t.nn.LSTM(5, 8, 2, dropout=0.5, batch_first=True)
        out, _ = lstm(t.randn(4, 6, 5))
        print(t.nn.functional.dropout(out, 0.5).sum(dim=2))

    theirs, ours = both(program)
    assert ours == theirs


# -- one-element views changed in place change their base (issue 27 / 26's finding) ------------
def test_one_element_views_updated_in_place_change_their_base_as_in_torch():
    def program(t):
        p = t.zeros(3)
        v = p[0]
        v += 1
        p[1].add_(2)
        p.unbind()[2].mul_(0).add_(5)
        print(p, v)
        p.select(0, 1).copy_(t.tensor(7.0))
        q = t.zeros(2, 3)
        q[0].add_(1)
        q[1][2].add_(3)
        q.view(6)[0].zero_()
        print(p, q)
        r = t.zeros(3, requires_grad=True)
        with t.no_grad():
            r[1].mul_(3).add_(2)
            for x in r.unbind():
                x.add_(0.5)
        print(r)

    theirs, ours = both(program)
    assert ours == theirs


def test_recorded_in_place_ops_on_views_write_back_with_torchs_versions_and_errors():
    def program(t):
        a = t.ones(3, requires_grad=True).clone()
        a[0].add_(1)
        print(a._version, a)
        b = t.ones(4, requires_grad=True).clone()
        s = b.sin()
        b[1] *= 2
        print(b._version, b)
        try:
            s.sum().backward()
        except RuntimeError as error:
            print(error)
        w = t.ones(3, requires_grad=True)
        c = w * 1
        c[2].mul_(3)
        c.select(0, 1).mul_(w[1] * 2)
        try:
            c.unbind()[0].add_(1)
        except RuntimeError as error:
            print(error)
        try:
            w[0].add_(1)
        except RuntimeError as error:
            print(error)
        print(c, c._version)
        c.sum().backward()
        m = t.ones(2, 3, requires_grad=True)
        n = m * 2
        n[1][2].add_(5)
        n[0].mul_(3)
        n.pow(2).sum().backward()
        print(n, n._version, w.grad, m.grad)

    theirs, ours = both(program)
    assert ours == theirs


# -- wrong arguments get torch's exception and message, word for word --------------------------
ERROR_CASES = {
    "broadcast": lambda t: t.ones(2, 3) + t.ones(4, 5),
    "where broadcasts in order": lambda t: t.where(t.ones(2) > 0, t.ones(2, 3), t.ones(4, 5)),
    "gather out of range": lambda t: t.gather(t.ones(2, 3), 1, t.tensor([[5]])),
    "gather dims": lambda t: t.gather(t.ones(2, 3), 1, t.tensor([0])),
    "gather size": lambda t: t.gather(t.ones(1, 1), 1, t.zeros(2, 2, dtype=t.long)),
    "scatter out of range": lambda t: t.zeros(2, 3).scatter(1, t.tensor([[7]]), 1.0),
    "scatter float index": lambda t: t.zeros(2, 3).scatter_(1, t.tensor([[0.0]]), 1.0),
    "scatter_add src dims": lambda t: t.zeros(3, 5).scatter_add(
        0, t.zeros(2, 2, dtype=t.long), t.ones(2, 5, 2)
    ),
    "index_select out of range": lambda t: t.index_select(t.ones(2, 3), 0, t.tensor([5])),
    "index_select float index": lambda t: t.index_select(t.ones(2, 3), 0, t.tensor([0.0])),
    "index_add shapes": lambda t: t.ones(3, 2).index_add(0, t.tensor([0, 1]), t.ones(2)),
    "max of nothing": lambda t: t.ones(0).max(),
    "amax over an empty dim": lambda t: t.ones(5, 0, 5).amax(dim=1),
    "chunk 0": lambda t: t.ones(2, 3).chunk(0),
    "split negative": lambda t: t.ones(2, 3).split(-1),
    "narrow start": lambda t: t.ones(20, 10).narrow(1, 11, 0),
    "narrow 0-d": lambda t: t.tensor(1.0).narrow(0, 0, 1),
    "roll without shifts": lambda t: t.ones(5).roll(()),
    "rot90 same dims": lambda t: t.ones(5, 5).rot90(1, (1, 1)),
    "fliplr of a vector": lambda t: t.fliplr(t.ones(3)),
    "vstack of nothing": lambda t: t.vstack(()),
    "cat of 0-d": lambda t: t.cat([t.tensor(1.0), t.tensor(2.0)]),
    "movedim repeated": lambda t: t.ones(2, 3, 4).movedim((0, 0), (1, 2)),
    "hsplit indivisible": lambda t: t.hsplit(t.ones(5, 5), 2),
    "outer of matrices": lambda t: t.outer(t.ones(2, 3), t.ones(2, 3)),
    "unflatten sizes": lambda t: t.ones(3).unflatten(0, (2, 2)),
    "masked_fill float mask": lambda t: t.ones(2).masked_fill(t.ones(2), 0.0),
    "softmax of integers": lambda t: t.tensor([1, 2]).softmax(0),
    "setitem shapes": lambda t: t.ones(2, 3).__setitem__(0, t.ones(5)),
    "einsum rank": lambda t: t.einsum("ij,jk->ik", t.ones(2, 3), t.ones(2)),
    "einsum sizes": lambda t: t.einsum("ij,jk->ik", t.ones(2, 3), t.ones(2, 2)),
    "singular inverse": lambda t: t.linalg.inv(t.zeros(2, 2)),
    "singular solve": lambda t: t.linalg.solve(t.zeros(2, 2), t.ones(2)),
    "linalg.cross length": lambda t: t.linalg.cross(t.ones(5, 3), t.ones(5, 1)),
    "renorm of a vector": lambda t: t.ones(3).renorm(2, 0, 1.0),
    "diff order": lambda t: t.ones(3).diff(-1),
    "bucketize boundaries": lambda t: t.bucketize(t.ones(3), t.ones(2, 2)),
}


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_wrong_arguments_raise_torchs_exception_and_message(name):
    raised = []
    for lib in (torch, autoviz):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(Exception) as caught:
                ERROR_CASES[name](lib)
        raised.append((type(caught.value).__name__, str(caught.value)))
    assert raised[1] == raised[0]


# -- gradients of broadcasting sums and of a batch norm written by hand, bit for bit -----------
@pytest.mark.parametrize(
    "shape, bias, dim",
    [
        ((37, 13), (13,), None),
        ((5, 37, 13), (37, 1), None),
        ((33, 65), (65,), 1),
        ((4, 3, 16, 16), (1, 3, 1, 1), (0, 2, 3)),
        ((3, 1000), (3, 1), None),
    ],
)
def test_a_sums_gradient_is_a_broadcast_view_and_adds_up_as_torchs(shape, bias, dim):
    """SumBackward0 hands on grad.expand(sizes), as torch does: the bias's gradient then sums
    stride-0 memory in the order torch's kernel does (a copy summed as a dense array rounds
    differently in 74 of these 444 elements)."""
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    grads = []
    for lib in (torch, autoviz):
        b = lib.zeros(*bias, requires_grad=True)
        y = lib.from_numpy(x.copy()) * 0.37 + b
        (y.sum() * 1.3 if dim is None else y.sum(dim=dim).sum() * 0.9).backward()
        grads.append(b.grad.numpy())
    assert grads[1].tobytes() == grads[0].tobytes()


@pytest.mark.parametrize("shape", [(16, 7), (64, 10), (4, 3, 6, 6), (2, 6, 9, 9)])
def test_batch_norm_written_by_hand_has_torchs_gradients_bit_for_bit(shape):
    """D2L's batch norm from scratch (mean and variance by hand); the square root aside,
    whose float32 torch takes from MKL's vector library (it rounds 17% of values to the other
    neighbour), every value and gradient is torch's to the last bit."""
    dims = (0,) if len(shape) == 2 else (0, 2, 3)
    rng = np.random.default_rng(0)
    x0, w = rng.standard_normal(shape).astype(np.float32), rng.standard_normal(shape)
    results = []
    for lib in (torch, autoviz):
        x = lib.from_numpy(x0.copy()).requires_grad_()
        gamma = lib.ones([1 if i in dims else n for i, n in enumerate(shape)], requires_grad=True)
        mean = x.mean(dim=dims, keepdim=True)
        var = ((x - mean) ** 2).mean(dim=dims, keepdim=True)
        y = gamma * (x - mean) / (var + 1e-5)
        (y * lib.from_numpy(w.astype(np.float32))).sum().backward()
        results.append([t.detach().numpy().tobytes() for t in (y, x.grad, gamma.grad)])
    assert results[1] == results[0]


def test_finfo_iinfo_base_and_diagonal_views_as_in_torch():
    def program(t):
        f, i = t.finfo(t.float32), t.iinfo(t.int16)
        print(f, f.eps, f.tiny, f.max, f.resolution, f.bits, f.dtype, t.finfo(), t.finfo(t.float16))
        print(i, i.min, i.max, i.bits, t.iinfo(t.uint8), t.iinfo(t.int64), t.finfo(t.float64).eps)
        for bad in (lambda: t.iinfo(t.float32), lambda: t.finfo(t.int32)):
            try:
                bad()
            except TypeError as error:
                print(error)
        x = t.arange(6.0)
        v = x.view(2, 3)
        print(v._base is x, x._base, v[0]._base is x, v.t()._base is x, x.clone()._base)
        print(x.reshape(3, 2)._base is x, x[1:]._base is x, x.unsqueeze(0)._base is x)
        v.t()[1, 0] = 7
        w = t.ones(3, 3)
        w.diagonal().zero_()
        d = w.diagonal(offset=1)
        d += 2
        t.diagonal(w).fill_(5)
        print(x, w)

    theirs, ours = both(program)
    assert ours == theirs


def test_custom_function_of_several_differentiable_outputs_is_one_node_as_in_torch():
    """Both outputs share one node; backward runs once with each output's gradient (zeros, or
    None without materialize_grads, where none came); tensor hooks, node hooks, autograd.grad
    with respect to an output, a saved output changed in place, and create_graph all as torch."""

    def program(t):
        class Pair(t.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                ctx.save_for_backward(x, y)
                return x * y, x + y, 7

            @staticmethod
            def backward(ctx, g1, g2, g3):
                x, y = ctx.saved_tensors
                print("backward got", g1, g2, g3)
                return g1 * y + g2, g1 * x + g2

        x = t.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = t.tensor([0.5, -1.0, 2.0], requires_grad=True)
        a, b, n = Pair.apply(x, y)
        print(a.grad_fn.name(), type(b.grad_fn).__name__, a.output_nr, b.output_nr, n)
        print(repr(a.grad_fn).split(" object")[0], len(a.grad_fn.next_functions))
        c = a * 3 + b.exp()
        print([(type(f).__name__, k) for f, k in c.grad_fn.next_functions[0][0].next_functions])
        print(c.grad_fn.next_functions[1][0].next_functions[0][1])
        a.register_hook(lambda g: print("hook a", g))
        b.register_hook(lambda g: print("hook b", g))
        a.grad_fn.register_prehook(lambda gs: print("prehook", gs))
        a.grad_fn.register_hook(lambda gi, go: print("posthook", gi, go))
        c.sum().backward(retain_graph=True)
        print(x.grad, y.grad)
        x.grad = y.grad = None
        a.sum().backward()  # b's gradient never arrives: zeros for backward, None for its hook
        print(x.grad, y.grad)
        a, b, n = Pair.apply(x, y)
        print(t.autograd.grad((a * b).sum(), [a, b, x]))

        class Lazy(t.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(False)
                return x.clone(), x * 2

            @staticmethod
            def backward(ctx, g1, g2):
                print("Lazy got", g1, g2)
                return (g1 if g1 is not None else 0) + (2 * g2 if g2 is not None else 0)

        _, q = Lazy.apply(x)
        q.sum().backward()
        print(x.grad)

        class Saves(t.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                u, v = x * 2, x * 3
                ctx.save_for_backward(u, v)
                return u, v

            @staticmethod
            def backward(ctx, gu, gv):
                assert len(ctx.saved_tensors) == 2  # reading them checks their versions
                return gu * 2 + gv * 3

        u, v = Saves.apply(x)
        v.add_(1)
        try:
            (u + v).sum().backward()
        except RuntimeError as e:
            print("RuntimeError:", e)

        class Powers(t.autograd.Function):
            @staticmethod
            def forward(ctx, z):
                ctx.save_for_backward(z)
                return z * z, z * z * z

            @staticmethod
            def backward(ctx, g1, g2):
                (z,) = ctx.saved_tensors
                return g1 * 2 * z + g2 * 3 * z * z

        z = t.tensor(2.0, requires_grad=True)
        s1, s2 = Powers.apply(z)
        (gz,) = t.autograd.grad(s1 + s2, z, create_graph=True)
        print(gz, t.autograd.grad(gz, z))

    theirs, ours = both(program)
    assert ours == theirs
    assert "hook b None" in ours and "output 1 of Saves" in ours


def test_split_chunk_and_unbind_are_one_node_with_an_output_per_piece():
    def program(t):
        x = t.arange(6.0).reshape(3, 2).requires_grad_()
        a, b = x.split([1, 2])
        p, q, r = x.unbind()
        c1, c2 = x.chunk(2, dim=1)
        print(type(a.grad_fn).__name__, b.output_nr, r.output_nr, type(r.grad_fn).__name__)
        print(
            type(c2.grad_fn).__name__, c2.output_nr, [k for _, k in (q * 2).grad_fn.next_functions]
        )
        (b * 3).sum().backward(retain_graph=True)  # only one piece used: zeros for the other
        print(x.grad)
        rows = [row * (i + 1) for i, row in enumerate(x)]  # iterating is unbind
        t.stack(rows).sum().backward()
        print(x.grad)
        (g,) = t.autograd.grad((p * q * c1.sum()).sum(), x, create_graph=True)
        print(g, t.autograd.grad(g.sum(), x))

    theirs, ours = both(program)
    assert ours == theirs


def test_data_has_its_own_version_counter_as_in_torch():
    """An in-place change through `.data` is not seen by backward (the silent wrong gradient a
    lesson warns of); through detach() it is (they share the counter)."""

    def program(t):
        p = t.tensor([1.0, 2.0], requires_grad=True)
        y = (p * p).sum()
        d = p.data
        d.mul_(10)
        print(p._version, d._version, p.data._version)
        y.backward()
        print(p.grad)
        q = t.ones(2, requires_grad=True)
        z = (q * q).sum()
        q.detach().mul_(3)
        print(q._version)
        try:
            z.backward()
        except RuntimeError as e:
            print(str(e)[:80])
        w = t.ones(3, requires_grad=True)
        with t.no_grad():
            w.data.sub_(0.5)
            w.sub_(0.1)
        print(w._version, w)

    theirs, ours = both(program)
    assert ours == theirs
