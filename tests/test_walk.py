"""draw()'s walk of a tensor's graph: every node and edge once, whatever the graph's shape."""

import re
import tracemalloc

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import autoviz
from autoviz.errors import GraphTooLarge
from autoviz.render import to_dot
from autoviz.tracing import graph_of
from autoviz.tracing.walk import ops_in_order

# Ops on the tensors made so far: two inputs (the same one twice makes `a + a`), one, or one
# and a number (a constant the graph must still draw).
OPS = {
    "+": (2, lambda a, b: a + b),
    "*": (2, lambda a, b: a * b),
    "-": (2, lambda a, b: a - b),
    "tanh": (1, lambda a, b: a.tanh()),
    "*2": (1, lambda a, b: a * 2.0),
}
PROGRAMS = st.lists(
    st.tuples(st.sampled_from(sorted(OPS)), st.integers(0, 40), st.integers(0, 40)),
    min_size=1,
    max_size=14,
)


def run(lib, leaves: int, program: list):
    """The program's tensors, v0 … (leaves first), and what each op read."""
    pool = [lib.tensor([0.5 + i, -1.0], requires_grad=True) for i in range(leaves)]
    reads = {}
    for op, i, j in program:
        arity, apply = OPS[op]
        a, b = i % len(pool), j % len(pool)
        reads[len(pool)] = (op, [a, b][:arity])
        pool.append(apply(pool[a], pool[b]))
    return pool, reads


def reachable(reads: dict, root: int) -> set:
    seen, stack = set(), [root]
    while stack:
        k = stack.pop()
        if k not in seen:
            seen.add(k)
            stack += reads[k][1] if k in reads else []
    return seen


def view_for(lib):
    if lib is autoviz:
        return None
    from autoviz.bridge.modules import ModuleMap
    from autoviz.bridge.view import TorchView

    return TorchView(ModuleMap({}))


@pytest.mark.parametrize("lib_name", ["autoviz", "torch"])
@settings(max_examples=60, deadline=None)
@given(leaves=st.integers(1, 3), program=PROGRAMS)
@example(leaves=1, program=[("*2", 0, 0), ("*", 1, 1), ("+", 2, 1)])  # a = b * 3; a + b
@example(leaves=1, program=[("+", 0, 0), ("*", 1, 0), ("-", 2, 1)])  # a diamond, a + a
def test_every_node_and_edge_is_drawn_once(lib_name, leaves, program):
    lib = autoviz if lib_name == "autoviz" else pytest.importorskip("torch")
    pool, reads = run(lib, leaves, program)
    root = len(pool) - 1
    namespace = {f"v{k}": t for k, t in enumerate(pool)}
    graph = graph_of(pool[root], namespace, view_for(lib))
    used = reachable(reads, root)
    by_name = {}
    for node in graph.nodes:
        if node.kind != "op" and node.name.startswith("v"):
            assert node.name not in by_name, f"{node.name} drawn twice"
            by_name[node.name] = node
    assert set(by_name) == {f"v{k}" for k in used}
    ops = [n for n in graph.nodes if n.kind == "op"]
    assert len(ops) == len([k for k in used if k in reads])
    edges = [(e.source, e.target, e.index) for e in graph.edges]
    assert len(edges) == len(set(edges)), "an edge drawn twice"
    nodes = {n.id: n for n in graph.nodes}
    made_by = {e.target: e.source for e in graph.edges if nodes[e.source].kind == "op"}
    for k in used & set(reads):
        op_id = made_by[by_name[f"v{k}"].id]
        into = sorted((e.index, nodes[e.source].name) for e in graph.edges if e.target == op_id)
        expected = [f"v{i}" for i in reads[k][1]]
        if reads[k][0] == "*2":
            expected.append("2.0")
        assert [name for _, name in into] == expected, (k, reads[k])
    source = to_dot(graph)
    for node in graph.nodes:
        assert len(re.findall(rf"^\t+{node.id} \[", source, re.M)) == 1
    for edge in graph.edges:
        assert source.count(f'[id="{edge.id}"') == 1


def test_an_input_computed_from_the_other_input():
    """Issue 15.1: b = x * 2; a = b * 3; draw(a + b) raised KeyError (b reached first)."""
    x = autoviz.tensor(1.0, requires_grad=True)
    b = x * 2
    a = b * 3
    graph = graph_of(a + b, {"x": x, "b": b, "a": a})
    names = [n.name for n in graph.nodes if n.kind != "op"]
    assert names.count("b") == 1 and names.count("a") == 1


@pytest.mark.parametrize("lib_name", ["autoviz", "torch"])
def test_a_residual_block_draws(lib_name):
    lib = autoviz if lib_name == "autoviz" else pytest.importorskip("torch")
    lib.manual_seed(0)
    lin = lib.nn.Linear(2, 2)
    u = lib.randn(3, 2, requires_grad=True)
    out = (lin(u) + u).sum()
    diagram = autoviz.draw(out)
    assert diagram.source.count("<b>u</b>") == 1
    into_add = [line for line in diagram.source.splitlines() if "-> n" in line]
    assert len(into_add) == len(set(into_add))


def chain(n_ops: int):
    x = autoviz.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n_ops):
        y = y * 1.0000001
    return y


def test_an_over_size_graph_is_refused_while_walking():
    """Issue 15.2: the walk counts as it goes and stops past max_nodes, so refusing a huge
    graph costs what walking max_nodes of it costs (the 1,000,000-node chain of the issue is
    measured in benchmarks/walk.py)."""
    y = chain(20_000)
    tracemalloc.start()
    with pytest.raises(
        GraphTooLarge, match=r"more than 5,000 operations and leaves outside any nn\.Module"
    ):
        autoviz.draw(y)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 10_000_000  # a whole 20,000-op graph's nodes and edges would take more
    with pytest.raises(GraphTooLarge, match="more than 100 operations"):
        autoviz.draw(y, max_nodes=100)


def test_a_graph_under_the_limit_is_walked_whole():
    graph = graph_of(chain(3_000), {}, max_nodes=5_000)
    assert sum(n.kind == "op" for n in graph.nodes) == 3_000


class Endless:
    """A backward node whose inputs are made when asked for: a chain with no end."""

    made = 0

    def __init__(self) -> None:
        Endless.made += 1

    @property
    def next_functions(self):
        return ((Endless(), 0),)


def test_the_walk_stops_at_the_limit_whatever_the_graph_size():
    """However long the graph, the walk looks at max_nodes + 1 of its ops before refusing."""
    Endless.made = 0
    with pytest.raises(GraphTooLarge):
        ops_in_order(Endless(), max_nodes=1_000)
    assert Endless.made <= 1_002
