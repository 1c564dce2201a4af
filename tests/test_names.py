"""Names: a tensor a variable holds is labelled after it, and a fallback name (t1, net.0.out, …)
is never a name the program uses, in random programs traced on both engines and drawn."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import autoviz

SUBSCRIPTS = re.compile("[₀₁₂₃₄₅₆₇₈₉]+$")
IDENTIFIER = re.compile(r"[^\W\d]\w*")
# Variables a program may bind, the fallbacks' own spellings among them.
NAMES = ["t1", "t2", "t3", "t4", "h", "out", "y", "loss", "a"]


def base(label: str) -> str:
    return SUBSCRIPTS.sub("", label)


@st.composite
def programs(draw) -> list[str]:
    """Straight-line programs over leaves x and w: `v = expr`, one a line, where expr nests a
    few ops, so some results no variable holds."""
    live = ["x", "w"]

    def expr(depth: int) -> str:
        if depth == 0 or draw(st.booleans()):
            return draw(st.sampled_from([*live, "2.0", "3"]))
        kind = draw(st.sampled_from(["+", "*", "-", "tanh", "exp", "sum"]))
        if kind in ("tanh", "exp", "sum"):  # on a tensor: a variable plus something
            return f"({draw(st.sampled_from(live))} + {expr(depth - 1)}).{kind}()"
        return f"({expr(depth - 1)} {kind} {expr(depth - 1)})"

    lines = []
    for _ in range(draw(st.integers(1, 5))):
        target = draw(st.sampled_from(NAMES))
        body = expr(draw(st.integers(1, 3)))
        if not set(IDENTIFIER.findall(body)) & set(live) or body in live:  # a tensor op
            body = f"({body} * x)"
        lines.append(f"{target} = {body}")
        live.append(target)
    return lines


def run(lines: list[str], lib: str, tmp_path):
    """Trace the program (written to a file, as a script is) on one engine; return the
    timeline and the program's identifiers."""
    tracer = "autoviz.trace()" if lib == "autoviz" else "autoviz.trace_torch()"
    make = "autoviz" if lib == "autoviz" else "torch"
    body = "\n".join(f"    {line}" for line in lines)
    text = (
        f"import autoviz\nimport {make}\n"
        f"x = {make}.tensor([0.5, -1.0], requires_grad=True)\n"
        f"w = {make}.tensor([2.0, 0.25], requires_grad=True)\n"
        f"with {tracer} as tl:\n{body}\n"
    )
    path = tmp_path / f"prog_{abs(hash(text))}.py"
    path.write_text(text)
    ns = {"__name__": "__prog__"}
    exec(compile(text, str(path), "exec"), ns)
    return ns["tl"], set(IDENTIFIER.findall(text))


def check(tl, lines: list[str], identifiers: set) -> None:
    """The last op of each line makes its variable's tensor, labelled after it; every other
    tensor made on a line (a sub-expression's result) has a name the program does not use."""
    targets = {i + 6: line.split(" = ")[0] for i, line in enumerate(lines)}  # line numbers
    made = {}
    for step in tl.steps:
        if step.kind == "op" and step.source is not None and step.source.line in targets:
            made.setdefault(step.source.line, []).append(step.nodes[1])
    nodes = {n.id: n for n in tl.nodes}
    for line, outs in made.items():
        assert base(nodes[outs[-1]].name) == targets[line], (lines, nodes[outs[-1]].name)
        for node_id in outs[:-1]:
            label = nodes[node_id].name
            assert base(label) not in identifiers, f"fallback {label!r} is the program's: {lines}"


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=programs())
def test_fallback_names_never_take_the_programs_names(lib, lines, tmp_path):
    if lib == "torch":
        pytest.importorskip("torch")
    tl, identifiers = run(lines, lib, tmp_path)
    check(tl, lines, identifiers)


def test_the_users_t1_is_the_node_labelled_t1():
    """Issue 25's case: `x + 1` is not called t1 when the program has a t1, in draw() too."""
    x = autoviz.tensor(1.0, requires_grad=True)
    with autoviz.trace() as tl:
        t1 = x * 3
        out = (x + 1) * t1
    by_name = {n.name: n for n in tl.nodes if n.kind != "op"}
    assert by_name["t1"].value == 3.0 and by_name["out"].value == 6.0
    plus = next(n for n in tl.nodes if n.kind != "op" and n.value == 2.0)
    assert base(plus.name) not in {"t1", "out", "x"}
    labels = re.findall(
        r"<b>([^<]*)</b><br/><font[^>]*>value: ([^<]*)</font>", autoviz.draw(out).source
    )
    assert ("t1", "3.0") in labels and not any(name == "t1" and v != "3.0" for name, v in labels)


def test_a_residual_blocks_out_is_what_its_forward_returned():
    """README's rule: `net.blocks.0.out` is the block's output; what it made before its
    submodule ran is named after its op, not `out` (issue 25 item 5)."""
    from autoviz import nn

    class Block(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.lin = nn.Linear(d, d)

        def forward(self, x):
            return x + self.lin(autoviz.relu(x))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(Block(3), Block(3))

        def forward(self, x):
            return self.blocks(x)

    autoviz.manual_seed(0)
    net = Net()
    x = autoviz.randn(2, 3, requires_grad=True)
    with autoviz.trace() as tl:
        y = net(x).sum()
    made = {n.name: n for n in tl.nodes if n.kind != "op"}
    ops = {
        e.target: n.op for n in tl.nodes for e in tl.edges if e.source == n.id and n.kind == "op"
    }
    for k in (0, 1):
        assert ops[made[f"net.blocks.{k}.out"].id] == "AddBackward0"
        assert ops[made[f"net.blocks.{k}.relu"].id] == "ReluBackward0"
    assert not any(name.startswith("net.blocks.0.out₁") for name in made)
    assert y.shape == ()


def test_module_outputs_in_a_loop_of_calls_stay_distinct():
    """A module called in a loop (an RNN cell): each call's result is the module's out."""
    from autoviz import nn

    lin = nn.Linear(2, 2)
    h = autoviz.zeros(1, 2)
    xs = autoviz.randn(3, 1, 2, requires_grad=True)
    with autoviz.trace() as tl:
        for t in range(3):
            h = autoviz.tanh(lin(xs[t]) + h)
    names = [n.name for n in tl.nodes if n.kind != "op"]
    assert sum(base(n) == "lin.out" for n in names) == 3, names
