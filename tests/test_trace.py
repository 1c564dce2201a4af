"""autoviz.trace(): the Timeline's steps, values, names, state changes and JSON."""

import contextlib
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoviz
from autoviz.errors import TimelineFormatError
from conftest import lesson_timeline


def kinds(tl):
    return [s.kind for s in tl.steps]


def names(graph):
    return {n.name: n for n in graph.nodes}


def test_lesson_example_steps_by_hand():
    tl = lesson_timeline()
    assert kinds(tl) == [
        "leaf", "leaf", "op", "leaf", "op",  # w, x appear at first use, then w * x, b, + b
        "seed", "backward", "accumulate", "backward", "accumulate", "accumulate", "free",
    ]  # fmt: skip
    assert [s.phase for s in tl.steps] == ["forward"] * 5 + ["backward"] * 7
    final = names(tl[-1])
    assert {n: final[n].kind for n in "xwbyz"} == {
        "x": "leaf", "w": "leaf", "b": "leaf", "y": "intermediate", "z": "output",
    }  # fmt: skip
    seed = tl.steps[5]
    assert seed.details["grad"] == 1.0 and seed.caption == "Backward starts at z: ∂z/∂z = 1.0."
    mul = tl.steps[8]
    assert tl.nodes[int(mul.nodes[0][1:]) - 1].op == "MulBackward0"
    flows = {tl.nodes[int(tl.edges[f.edge].source[1:]) - 1].name: f for f in mul.flows}
    assert (flows["w"].upstream, flows["w"].local, flows["w"].contribution) == (1.0, 2.0, 2.0)
    assert (flows["x"].upstream, flows["x"].local, flows["x"].contribution) == (1.0, 3.0, 3.0)
    add = tl.steps[6]
    assert [(f.local, f.contribution) for f in add.flows] == [(1.0, 1.0), (1.0, 1.0)]  # dz/db = 1
    assert {n: final[n].grad for n in "xwb"} == {"x": 3.0, "w": 2.0, "b": 1.0}


def test_steps_record_source_lines_and_captions():
    tl = lesson_timeline()
    assert tl.steps[2].source.text == "y = w * x"
    assert tl.steps[2].source.file.endswith("conftest.py")  # where the traced code lives
    assert tl.steps[5].source.text == "z.backward()"
    assert (
        tl.steps[2].caption
        == "y = w * x = 6.0 is computed and recorded: y.grad_fn is MulBackward0."
    )
    assert "1.0 × 2.0 = 2.0 to w" in tl.steps[8].caption
    assert all(s.caption for s in tl.steps)


def test_snapshots_grow_then_fill_gradients():
    tl = lesson_timeline()
    assert [len(tl[k].nodes) for k in range(5)] == [1, 2, 4, 5, 7]
    assert names(tl[4])["x"].grad is None and not tl[4].backward_ran
    assert names(tl[9])["w"].grad == 2.0 and names(tl[9])["x"].grad is None
    assert tl[8].current == [tl.steps[8].nodes[0]]
    assert tl[-1].backward_ran and all(n.freed for n in tl[-1].nodes if n.kind == "op")
    with pytest.raises(IndexError, match="out of range: this timeline has 12 steps"):
        tl[12]


def test_draw_a_step_gives_a_frame_of_that_snapshot(pure_engine):
    tl = lesson_timeline()
    svg = tl.draw(step=2).svg()
    z = tl[-1].node("n7")
    assert z.name == "z" and '<g id="n7" class="node output hidden">' in svg
    assert "grad: 3.0" in tl.draw().svg()


def test_fan_out_shows_the_running_sum():
    a = autoviz.tensor(3.0, requires_grad=True)
    with autoviz.trace() as tl:
        b = a + a
        c = b * b
        c.backward()
    assert a.grad.item() == 24.0  # dc/da = 2b * 2 = 8a
    add = next(s for s in tl.steps if s.kind == "backward" and "AddBackward0" in s.caption)
    assert [f.contribution for f in add.flows] == [12.0, 12.0]
    assert [f.total for f in add.flows] == [None, 24.0]  # 12 + 12 arrives at a
    assert "running sum is now 24.0" in add.caption
    assert names(tl[-1])["a"].grad == 24.0
    assert len([e for e in tl.edges if e.source == names(tl[-1])["a"].id]) == 2  # two edges


def test_broadcast_reduction_is_a_visible_step_with_both_shapes():
    m = autoviz.ones(3, 4, requires_grad=True)
    bias = autoviz.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    with autoviz.trace() as tl:
        out = (m + bias).sum()
        out.backward()
    reduce = next(s for s in tl.steps if s.kind == "reduce")
    assert reduce.details["from_shape"] == [3, 4] and reduce.details["to_shape"] == [4]
    assert tl.nodes[int(reduce.nodes[0][1:]) - 1].name == "bias"
    assert "(3, 4) is summed over dim 0 back to (4,)" in reduce.caption
    assert reduce.details["dims"] == [0]
    # The addition sends bias the upstream gradient at the output's shape, (3, 4) ones: the
    # sum over dim 0 happens at the reduce step, which sends the (4,) threes along the edge.
    add = tl.steps[reduce.index - 1]
    assert add.kind == "backward" and add.flows[1].shape == (3, 4)
    np.testing.assert_array_equal(add.flows[1].contribution, np.ones((3, 4)))
    np.testing.assert_array_equal(reduce.flows[0].contribution, [3.0, 3.0, 3.0, 3.0])
    assert reduce.flows[0].edge == add.flows[1].edge
    np.testing.assert_array_equal(names(tl[-1])["bias"].grad, [3.0, 3.0, 3.0, 3.0])


def test_large_gradients_keep_their_summaries():
    """The log keeps only the Summary of gradients too large to keep whole: flows and the
    reduction step carry their shapes and their true statistics."""
    m = autoviz.ones(2, 2000, requires_grad=True)
    bias = autoviz.ones(2000, requires_grad=True)
    with autoviz.trace() as tl:
        out = (m * bias).sum()
        out.backward()
    reduce = next(s for s in tl.steps if s.kind == "reduce")
    assert reduce.details["from_shape"] == [2, 2000] and reduce.details["to_shape"] == [2000]
    mul = next(s for s in tl.steps if s.kind == "backward" and len(s.flows) == 2)
    # The op sends both inputs a gradient of its output's shape; bias's is summed next step.
    assert [f.shape for f in mul.flows] == [(2, 2000), (2, 2000)]
    assert [f.shape for f in reduce.flows] == [(2000,)] and reduce.index == mul.index + 1
    sent = mul.flows[0].contribution
    assert (sent.shape, sent.min, sent.max, sent.mean) == ((2, 2000), 1.0, 1.0, 1.0)
    assert mul.details["grad"].norm == pytest.approx(4000**0.5)
    accumulated = [s for s in tl.steps if s.kind == "accumulate"]
    incoming = {s.details["incoming"].shape: s.details["incoming"] for s in accumulated}
    assert (incoming[(2000,)].min, incoming[(2000,)].max) == (2.0, 2.0)
    assert "bias.grad is now (2000,) all 2.0" in accumulated[-1].caption + accumulated[0].caption
    np.testing.assert_array_equal(bias.grad.numpy(), np.full(2000, 2.0))


def test_retain_grad_and_no_grad_and_detach():
    x = autoviz.tensor(2.0, requires_grad=True)
    with autoviz.trace() as tl:
        y = x * x
        y.retain_grad()
        with autoviz.no_grad():
            q = x * 10
        d = x.detach()
        y.backward()
    assert {"retain_grad", "no_grad", "detach"} <= set(kinds(tl))
    final = names(tl[-1])
    assert final["y"].retains_grad and final["y"].grad == 1.0
    assert final["q"].made_in_no_grad and final["q"].kind == "constant"
    assert final["d"].detached and not final["d"].requires_grad
    keep = next(s for s in tl.steps if s.kind == "accumulate" and s.nodes == [final["y"].id])
    assert keep.caption == "y.grad keeps 1.0 because of retain_grad()."
    assert q.item() == 20.0 and d.item() == 2.0


def test_second_backward_accumulates_and_zero_resets():
    x = autoviz.tensor(2.0, requires_grad=True)
    with autoviz.trace() as tl:
        y = x * 3.0
        y.backward(retain_graph=True)
        y.backward()
        x.grad.zero_()
    acc = [s for s in tl.steps if s.kind == "accumulate"]
    assert [s.details["grad"] for s in acc] == [3.0, 6.0]
    assert acc[1].caption == "x.grad accumulates: 3.0 + 3.0 = 6.0."
    assert kinds(tl).count("free") == 1  # only the second call frees the graph
    assert tl.steps[-1].kind == "zero_grad" and names(tl[-1])["x"].grad == 0.0


def test_constants_appear_as_their_value():
    x = autoviz.tensor(2.0, requires_grad=True)
    with autoviz.trace() as tl:
        y = x * 3.0
    const = [n for n in tl.nodes if n.kind == "constant"]
    assert [(c.name, c.value) for c in const] == [("3.0", 3.0)]
    assert names(tl[-1])["y"].kind == "output"  # nothing consumed it and no backward ran
    assert y.item() == 6.0


def test_loop_with_a_branch_records_the_graph_that_ran():
    def program(start):
        x = autoviz.tensor(start, requires_grad=True)
        with autoviz.trace() as tl:
            h = x
            for _ in range(3):
                h = h * 2.0 if h.item() < 10 else h + 1.0
            h.backward()
        return tl

    ops = lambda tl: [n.op for n in tl.nodes if n.kind == "op"]  # noqa: E731
    assert ops(program(1.0)) == ["MulBackward0"] * 3
    assert ops(program(6.0)) == ["MulBackward0", "AddBackward0", "AddBackward0"]


def test_training_loop_builds_a_new_graph_each_iteration():
    w = autoviz.tensor(0.0, requires_grad=True)
    with autoviz.trace() as tl:
        for _ in range(3):
            loss = (w * 2.0 - 4.0) ** 2
            loss.backward()
            with autoviz.no_grad():
                w -= 0.1 * w.grad
            w.grad.zero_()
    assert kinds(tl).count("free") == 3 and kinds(tl).count("update") == 3
    assert sorted({n.graph for n in tl.nodes}) == [-1, 0, 1, 2]  # leaves persist
    last = tl[-1]
    assert len([n for n in last.nodes if n.kind == "op"]) == 3  # only the current graph
    assert names(last)["w"].value == pytest.approx(w.item())


def test_names_default_to_numbered_and_explicit_names_win():
    with autoviz.trace() as tl:
        a = autoviz.tensor(1.0, requires_grad=True, name="alpha")
        (a * autoviz.tensor(2.0, requires_grad=True)).backward()
    assert [n.name for n in tl.nodes if n.kind != "op"] == ["alpha", "t1", "t2"]


def test_names_come_from_the_variable_each_result_is_stored_in():
    """Names are read from the bytecode: the result an instruction stores right away, even
    when the variable is rebound before the block ends or the statement spans lines."""
    import autoviz.nn.functional as F

    w = autoviz.tensor(3.0, requires_grad=True)
    x = autoviz.tensor(2.0, requires_grad=True)
    logits = autoviz.tensor([[1.0, 2.0, 0.5]], requires_grad=True)
    with autoviz.trace() as tl:
        y = w * x
        y = y + 1.0  # the first y is still named y
        z = (w * x).sum()  # w * x is not z
        a = b = y * 2.0
        q = y * 3.0
        loss = F.cross_entropy(logits, [1])  # two ops in one call: only the last is `loss`
        for _ in range(2):
            h = y * y
        del q, h
    made_by = {e.target: e.source for e in tl.edges}
    ops = {n.id: n.op for n in tl.nodes}
    tensors = [n for n in tl.nodes if n.kind in ("leaf", "intermediate", "output")]
    # Distinct tensors get distinct labels: a rebound variable's later tensors are y₁, h₁.
    assert [n.name for n in tensors] == [
        "w",
        "x",
        "y",
        "y₁",
        "t1",
        "z",
        "a",
        "q",
        "logits",
        "t2",
        "loss",
        "h",
        "h₁",
    ]
    made = {n.name: ops.get(made_by.get(n.id)) for n in tensors}
    assert made["t2"] == "LogSoftmaxBackward0" and made["loss"] == "NllLossBackward0"
    assert b is a and z.item() == 6.0 and loss.grad_fn is not None


def test_names_survive_python_calls_in_loops_and_stores_that_are_not_the_tensor():
    """A Python function called in a loop (its f_lasti points into the call's inline cache on
    3.11 and 3.12); a builtin that runs ops itself (`sum`); a call that makes tensors but
    returns something else. Only tensors the variable really held get its name."""
    x = autoviz.tensor([0.5, -0.25], requires_grad=True)
    with autoviz.trace() as tl:
        h = x
        for _ in range(3):
            h = h.tanh()
        parts = [h * 1.0, h * 2.0, h * 3.0]
        total = sum(parts)  # three adds (0 + p0 is untracked): only the last is `total`
        copies = [p.detach() for p in parts]
        kept = len(copies)  # noqa: F841 (a store of something that is not a tensor)
        out = total.sum()
    tensors = [n.name for n in tl.nodes if n.kind in ("intermediate", "output")]
    assert tensors[:3] == ["h", "h₁", "h₂"] and tensors[-1] == "out"
    assert tensors.count("total") == 1 and "parts" not in tensors and "kept" not in tensors
    assert out.item() == pytest.approx(6 * float(h.sum().item()))


def tensor_names_of_module(source: str) -> list:
    """Run `source` as a module (a script, a notebook cell) that traces into `tl`; the names
    of the tensors in the timeline, constants left out."""
    scope = {"autoviz": autoviz}
    exec(compile(source, "<module>", "exec"), scope)
    return [n.name for n in scope["tl"].nodes if n.kind not in ("op", "constant")]


def test_names_in_a_module_with_hundreds_of_variables():
    """Beyond 255 names a store carries EXTENDED_ARG between the op and itself."""
    source = "".join(f"v{i} = {i}\n" for i in range(300)) + (
        "w = autoviz.tensor(3.0, requires_grad=True)\n"
        "with autoviz.trace() as tl:\n"
        "    y = w * 2.0\n"
        "    y = y * 2.0\n"
        "    y = y * 2.0\n"
    )
    assert tensor_names_of_module(source) == ["w", "y", "y₁", "y₂"]


def test_in_place_ops_on_graph_tensors_feed_later_ops_from_their_result():
    x = autoviz.tensor([1.0, 2.0], requires_grad=True)
    with autoviz.trace() as tl:
        y = x * 2.0
        y.mul_(3.0)
        z = y.sum()
        z.backward()
    nodes = {n.id: n for n in tl.nodes}
    chain = [(nodes[e.source].name or nodes[e.source].op, nodes[e.target].op) for e in tl.edges]
    assert ("MulBackward0", None) in chain and chain[-2:] == [
        ("y₁", "SumBackward0"),  # the in-place op's result, a tensor of its own
        ("SumBackward0", None),
    ]
    into_sum = next(e for e in tl.edges if nodes[e.target].op == "SumBackward0")
    made_by = next(e.source for e in tl.edges if e.target == into_sum.source)
    assert nodes[made_by].op == "MulBackward0" and made_by != "n3"  # the in-place mul's node
    assert names(tl[-1])["x"].grad == [6.0, 6.0]


def test_every_op_step_points_at_the_users_line():
    """Ops come through many doors (operators, methods, properties, functional, nn, indexing,
    a custom autograd.Function); each step's source is the line in this file that ran it."""
    import autoviz.nn.functional as F

    class Double(autoviz.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    autoviz.manual_seed(0)
    layer = autoviz.nn.Linear(3, 2)
    x = autoviz.randn(4, 3, requires_grad=True)
    with autoviz.trace() as tl:
        a = 2.0 * x - 1.0
        b = a.T.exp().sum(dim=0)
        c = F.relu(x @ autoviz.ones(3, 3)) / 3.0
        d = layer(c)[1:, 0]
        e = autoviz.tanh(Double.apply(d)).mean() + b.mean()
        e.backward()
    ops = [s for s in tl.steps if s.kind == "op"]
    assert len(ops) >= 12
    here = Path(__file__).name
    assert all(Path(s.source.file).name == here for s in ops), [s.source for s in ops]
    texts = {s.source.text.strip().split(" =")[0] for s in ops}
    assert texts == {"a", "b", "c", "d", "e"}


def test_names_in_code_run_at_module_level():
    """A notebook cell or script stores into globals (STORE_NAME), not a function's locals."""
    source = (
        "x = autoviz.tensor(2.0, requires_grad=True)\n"
        "with autoviz.trace() as tl:\n"
        "    y = x * 3.0\n"
        "    y = (y + 1.0).relu()\n"
    )
    assert tensor_names_of_module(source) == ["x", "y", "t1", "y₁"]


def test_json_round_trip_and_determinism():
    first, second = lesson_timeline().to_json(), lesson_timeline().to_json()
    assert first == second
    doc = json.loads(first)
    assert (doc["format"], doc["version"]) == ("autoviz-timeline", 3)
    again = autoviz.Timeline.from_json(first)
    assert again.to_json() == first and len(again) == 12
    assert names(again[-1])["x"].grad == 3.0


def test_non_finite_values_survive_json():
    x = autoviz.tensor(0.0, requires_grad=True)
    with autoviz.trace() as tl:
        y = autoviz.log(x)
    assert "Infinity" not in tl.to_json() and "NaN" not in tl.to_json()
    assert names(autoviz.Timeline.from_json(tl.to_json())[-1])["y"].value == float("-inf")
    assert y.item() == float("-inf")


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda t: t[: len(t) // 2], "not valid JSON"),
        (lambda t: '{"format": "other"}', "format: expected 'autoviz-timeline'"),
        (lambda t: t.replace('"version":3', '"version":4'), "version: expected 1 or 2 or 3, got 4"),
        (lambda t: t.replace('"kind":["leaf"', '"kind":["blob"', 1), r"nodes\[0\]\.kind"),
        (lambda t: t.replace('"target":["n3"', '"target":["n99"', 1), r"edges\[0\]\.target"),
        (lambda t: t.replace('"phase":["forward"', '"phase":[7', 1), r"steps\[0\]\.phase"),
        (
            lambda t: t.replace('"target":["n3",', '"target":[', 1),
            r"edges\.target: \d+ values, where edges\.source has \d+",
        ),
        (lambda t: "[1, 2]", r"\(top level\): expected a JSON object"),
    ],
)
def test_malformed_json_names_the_field(mangle, message):
    text = lesson_timeline().to_json()
    with pytest.raises(TimelineFormatError, match=message):
        autoviz.Timeline.from_json(mangle(text))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("+*-r"), st.integers(0, 9), st.integers(0, 9)),
        min_size=1,
        max_size=12,
    ),
    st.lists(st.floats(-3, 3), min_size=3, max_size=3),
)
def test_recorded_gradients_equal_the_engines(program, values):
    """For random small expression graphs, the timeline's final grads are the engine's."""
    leaves = [
        autoviz.tensor(v, requires_grad=True, dtype=autoviz.float64, name=f"leaf{i}")
        for i, v in enumerate(values)
    ]
    with autoviz.trace() as tl:
        pool = list(leaves)
        for op, i, j in program:
            a, b = pool[i % len(pool)], pool[j % len(pool)]
            pool.append({"+": a + b, "*": a * b, "-": a - b, "r": autoviz.relu(a)}[op])
        pool[-1].sum().backward()
    final = names(tl[-1])
    for leaf in leaves:
        engine = None if leaf.grad is None else pytest.approx(leaf.grad.item())
        recorded = final[leaf.name].grad if leaf.name in final else None
        assert recorded == engine


def test_module_made_inside_the_trace_shows_its_initialised_parameters():
    """reset_parameters fills the weights in place after they are made: show the real values."""
    with autoviz.trace() as tl:
        lin = autoviz.nn.Linear(2, 1)
        lin(autoviz.ones(2)).sum().backward()
    nodes = {n.name: n for n in tl.nodes}
    assert nodes["lin.weight"].value == lin.weight.detach().numpy().tolist()
    assert nodes["lin.bias"].value == lin.bias.detach().numpy().tolist()


@pytest.mark.parametrize("raises", [False, True])
def test_tracing_holds_back_only_the_oldest_generation_and_restores_it(raises):
    """While a block is traced, young cyclic garbage is still collected and the oldest
    generation (the recording) is not; the collector's settings come back, even after an error."""
    import gc
    import weakref

    class Cycle:
        pass

    before = gc.get_threshold()
    young = None
    with contextlib.suppress(ZeroDivisionError), autoviz.trace():
        inside = gc.get_threshold()
        cycle = Cycle()
        cycle.me = cycle
        young = weakref.ref(cycle)
        del cycle
        gc.collect(1)  # what the collector does on its own while the block runs
        assert young() is None
        if raises:
            raise ZeroDivisionError("the block raised")
    assert inside[:2] == before[:2] and inside[2] > 10**6
    assert gc.get_threshold() == before


def test_torch_trace_of_a_matrix_is_its_diagonal_sum_and_trace_still_records():
    """Under as_torch() autoviz is torch, so autoviz.trace is also torch.trace(m)."""
    m = autoviz.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
    total = autoviz.trace(m)
    assert isinstance(total, autoviz.Tensor) and total.item() == 5.0
    total.backward()
    assert m.grad.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    with pytest.raises(RuntimeError, match="expected a matrix, but got tensor with dim 1"):
        autoviz.trace(autoviz.ones(3))
    with autoviz.trace() as tl:
        y = m * 2
    assert isinstance(tl, autoviz.Timeline) and len(tl.steps) > 0 and y.shape == (2, 2)
