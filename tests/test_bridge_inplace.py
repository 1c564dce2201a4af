"""The bridge survives in-place updates of views: what runs under torch runs traced, unchanged.

Random training loops unpack parameters into views (`model(x, *params)`, `params[0]`, slices,
split, chunk), update them in place under no_grad (`params -= lr * params.grad`, through
`.data`, a slice, a view) and then read the stale views again. Torch refuses some of that;
the traced run must then raise torch's own error, and otherwise give the program's own
numbers in every step of a timeline that builds and exports.
"""

import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import autoviz

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

DL_BOOK = """
def model(t_u, w, b):
    return w * t_u + b

params = torch.tensor([1.0, 0.0], requires_grad=True)
for epoch in range(3):
    if params.grad is not None:
        params.grad.zero_()
    t_p = model(t_u, *params)
    loss = ((t_p - t_c) ** 2).mean()
    record(loss)
    loss.backward()
    with torch.no_grad():
        params -= 1e-2 * params.grad
"""

# Ways to take views of `params` (a leaf of 4 elements) for the model's two arguments.
UNPACK = {
    "star": "a, b = params[0], params[1]",  # replaced by `*params` below for the call
    "unbind": "a, b, *_ = params.unbind()",
    "index": "a, b = params[0], params[1]",
    "slices": "a, b = params[:2], params[2:]",
    "split": "a, b = params.split(2)",
    "chunk": "a, b = params.chunk(2)",
    "view": "a, b = params.view(2, 2)",
}
FORWARD = {
    "line": "out = a * x + b",
    "square": "out = (a * x) ** 2 - b",
    "tanh": "out = (a * x).tanh() * b",
}
# In-place updates under no_grad, of the leaf or of a view of it.
UPDATE = {
    "isub": "params -= lr * params.grad",
    "sub_": "params.sub_(lr * params.grad)",
    "data": "params.data -= lr * params.grad",
    "data_mul": "params.data.mul_(0.9)",
    "copy": "params.copy_(params - lr * params.grad)",
    "slice": "params[:2] -= lr * params.grad[:2]",
    "element": "params[1] = params[1] * 0.5",
    "view_add": "a.add_(0.1)",
    "view_mul": "b.mul_(0.9)",
}
# What a program may do with the stale views after the update.
AFTER = {
    "none": "",
    "item": "seen = a.sum().item()",
    "detach": "seen = a.detach() + 1",
    "nograd_mul": "with torch.no_grad():\n    seen = a * 2",
    "clone": "with torch.no_grad():\n    seen = b.clone()",
    "tolist": "seen = b.tolist()",
    "grad_use": "seen = a * 2",  # torch refuses a multi-output view modified in place
}
RESET = {"zero": "params.grad.zero_()", "none": "params.grad = None"}


def program(unpack, forward, update, after, reset, iterations: int) -> str:
    """The source of a training loop over 4 parameters, recording every loss it computes."""
    call = "*params[:2]" if unpack == "star" else "a, b"
    body = f"""
    params = torch.tensor([0.5, -1.0, 0.25, 2.0], requires_grad=True)
    lr = 0.1

    def model(x, a, b):
        {FORWARD[forward]}
        return out

    for i in range({iterations}):
        {UNPACK[unpack]}
        loss = model(x, {call}).pow(2).mean()
        record(loss)
        loss.backward()
        with torch.no_grad():
            {UPDATE[update]}
        record(params)
{textwrap.indent(AFTER[after], " " * 8)}
        {RESET[reset]}
    """
    return textwrap.dedent(body)


def run(source: str, traced: bool):
    """Run `source` (under trace_torch when `traced`): (the timeline, what it recorded, the
    error it raised or None, its variables)."""
    recorded = []

    def record(t):
        recorded.append(t.detach().clone().tolist())

    namespace = {
        "torch": torch,
        "record": record,
        "x": torch.tensor([1.0, 2.0, 3.0, 4.0]),
        "t_u": torch.tensor([3.57, 5.59, 5.82, 8.19, 5.63]),
        "t_c": torch.tensor([0.5, 14.0, 15.0, 28.0, 11.0]),
    }
    tl, error = None, None
    code = compile(source, "<program>", "exec")
    try:
        if traced:
            with autoviz.trace_torch() as tl:
                exec(code, namespace)
        else:
            exec(code, namespace)
    except Exception as raised:  # the property: traced or not, the same error
        error = raised
    return tl, recorded, error, namespace


def check(source: str, export: bool = False) -> None:
    """Traced or not, the program does the same; the timeline shows its own numbers."""
    _, plain, plain_error, _ = run(source, traced=False)
    tl, recorded, error, namespace = run(source, traced=True)
    assert (type(error), str(error)) == (type(plain_error), str(plain_error)), source
    assert len(recorded) == len(plain)
    for mine, theirs in zip(recorded, plain, strict=True):
        np.testing.assert_allclose(mine, theirs, rtol=1e-6)
    losses = [r for r in recorded if not isinstance(r, list)]
    params = [r for r in recorded if isinstance(r, list)]
    # Every graph's loss node holds the loss the program computed in that iteration.
    shown = {}
    for k in range(len(tl)):
        graph = tl[k]
        for node in graph.nodes:
            if node.name == "loss" and node.kind != "op":
                shown[node.graph] = node.value
    assert [shown[g] for g in sorted(shown)][: len(losses)] == pytest.approx(losses, rel=1e-6)
    # The leaf shows the program's value after each update that went through.
    final = next((n for n in tl[-1].nodes if n.name == "params"), None)
    if final is not None and params and error is None:
        np.testing.assert_allclose(final.value, params[-1], rtol=1e-6)
    assert tl.to_json().startswith("{")
    # draw() of the last loss, with the stale views among the names it reads
    if "loss" in namespace:
        from autoviz.bridge import graph_of_torch

        graph = graph_of_torch(namespace["loss"], namespace)
        assert [n.value for n in graph.nodes if n.name == "loss"] == pytest.approx(losses[-1:])
    if export:
        tl.draw(len(tl) // 2)


@given(
    unpack=st.sampled_from(sorted(UNPACK)),
    forward=st.sampled_from(sorted(FORWARD)),
    update=st.sampled_from(sorted(UPDATE)),
    after=st.sampled_from(sorted(AFTER)),
    reset=st.sampled_from(sorted(RESET)),
    iterations=st.integers(1, 3),
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example("star", "line", "isub", "none", "zero", 3)
@example("unbind", "square", "view_add", "grad_use", "none", 2)
@example("index", "tanh", "element", "detach", "zero", 2)
@example("slices", "line", "slice", "clone", "none", 2)
@example("split", "line", "view_mul", "nograd_mul", "zero", 2)
def test_random_programs_updating_views_in_place_run_as_under_torch(
    unpack, forward, update, after, reset, iterations
):
    check(program(unpack, forward, update, after, reset, iterations))


def test_the_deep_learning_books_unpacked_parameters_train_traced(tmp_path):
    """`model(t_u, *params)` then `params -= lr * params.grad` under no_grad (issue 26.2)."""
    tl, recorded, error, _ = run(DL_BOOK, traced=True)
    assert error is None
    assert [n.value for n in tl.nodes if n.name == "loss"] == pytest.approx(recorded)
    updates = [s for s in tl.steps if s.kind == "update"]
    assert len(updates) == 3
    assert updates[0].caption.startswith("params is changed in place under no_grad")
    # The update shows the program's new values, and the next graph uses them.
    assert (tmp_path / "p.html") == tl.save_html(tmp_path / "p.html")


def test_a_view_updated_in_place_shows_its_base_changed():
    """`v.mul_(2)` under no_grad changes the leaf `v` is a view of: the leaf's value is new."""
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with autoviz.trace_torch() as tl:
        (w * w).sum().backward()
        with torch.no_grad():
            v = w[:2]
            v.mul_(2)
        y = (w * 1.0).sum()
    leaf = next(n for n in tl[-1].nodes if n.name == "w")
    assert leaf.value == [2.0, 4.0, 3.0]
    assert any(s.kind == "update" and s.nodes == [leaf.id] for s in tl.steps)
    assert y.item() == 9.0


def test_the_cli_exports_the_deep_learning_books_program(tmp_path):
    script = tmp_path / "book.py"
    data = "t_u = torch.tensor([3.57, 5.59, 5.82])\nt_c = torch.tensor([0.5, 14.0, 15.0])\n"
    script.write_text("import torch\n" + data + "record = print\n" + DL_BOOK)
    from autoviz.cli import main

    assert main(["html", "--engine", "torch", str(script), "-o", str(tmp_path / "b.html")]) == 0
    assert (tmp_path / "b.html").stat().st_size > 10_000
