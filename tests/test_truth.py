"""The truth audit (issue 25): for real lesson programs on both engines, every step of the
timeline, every tensor's shown value and grad (label rows as draw() and the frames write them,
the player's card and tooltip text, heatmap cells and range, the quiz's answer) is compared with
the real tensor at that step, recorded by hooks of the test's own (tests/truth.py)."""

import contextlib
import re

import numpy as np
import pytest
from truth import EngineTruth, block_means, check_text, honest, torch_truth

import autoviz
from autoviz.engine import events
from autoviz.export.details import details
from autoviz.render import get_theme, make_options
from autoviz.render.dot import label_rows
from autoviz.render.frames import Frames
from autoviz.tracing.explain import explain
from autoviz.tracing.preview import preview
from autoviz.tracing.quiz import candidates

HEADER = {
    "autoviz": "import autoviz\nimport autoviz as torch\nimport autoviz.nn as nn\n"
    "import autoviz.nn.functional as F\n",
    "torch": "import autoviz\nimport torch\nimport torch.nn as nn\n"
    "import torch.nn.functional as F\n",
}
ASKED = ("mlp", "manual")  # programs whose quiz asks about their leaves (updates, grads)
TRACER = {"autoviz": "autoviz.trace()", "torch": "autoviz.trace_torch()"}

# (setup, traced body): lesson programs at real sizes.
PROGRAMS = {
    "mlp": (
        """
torch.manual_seed(0)
X = torch.randn(16, 10)
y = torch.randn(16, 1)
net = nn.Sequential(nn.Linear(10, 512), nn.Tanh(), nn.Linear(512, 10), nn.Tanh(), nn.Linear(10, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
_watch(opt)
""",
        """
for it in range(2):
    loss = ((net(X) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""",
    ),
    "embedding": (
        """
torch.manual_seed(1)
emb = nn.Embedding(27, 10)
head = nn.Linear(30, 27)
ix = torch.randint(0, 27, (32, 3))
Y = torch.randint(0, 27, (32,))
opt = torch.optim.Adam([*emb.parameters(), *head.parameters()], lr=0.01)
_watch(opt)
""",
        """
for it in range(2):
    e = emb(ix).view(32, 30)
    logits = head(e)
    loss = F.cross_entropy(logits, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
""",
    ),
    "residual": (
        """
torch.manual_seed(2)
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x):
        return x + self.lin(torch.relu(x))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(Block(64), Block(64))
        self.head = nn.Linear(64, 1)

    def forward(self, x):
        return self.head(self.blocks(x))

net = Net()
x = torch.randn(8, 64)
""",
        """
out = net(x).pow(2).sum()
out.backward()
""",
    ),
    "broadcast": (
        """
torch.manual_seed(3)
x = torch.randn(100, 3)
w = torch.randn(3, requires_grad=True)
b = torch.randn(1, requires_grad=True)
""",
        """
y = x * w + b
loss = (y * y).sum()
loss.backward()
""",
    ),
    "manual": (
        """
torch.manual_seed(4)
X = torch.randn(20, 5)
Y = torch.randint(0, 3, (20,))
W = torch.randn(5, 3, requires_grad=True)
""",
        """
for it in range(3):
    logits = X @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdim=True)
    loss = -probs[torch.arange(20), Y].log().mean()
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
    W.grad = None
""",
    ),
}


@contextlib.contextmanager
def engine_truth(truth):
    events.add_observer(truth)
    try:
        yield truth
    finally:
        events.remove_observer(truth)


def run(name: str, lib: str, tmp_path):
    """Run program `name` on `lib` under its tracer, with the truth recorded beside it."""
    setup, body = PROGRAMS[name]
    truth = EngineTruth() if lib == "autoviz" else torch_truth()
    guard = engine_truth(truth) if lib == "autoviz" else truth
    indented = "".join(f"    {line}\n" for line in body.strip("\n").splitlines())
    text = f"{HEADER[lib]}{setup}\nwith {TRACER[lib]} as tl, _truth:\n{indented}"
    path = tmp_path / f"{name}_{lib}.py"
    path.write_text(text)
    watch = truth.watch if lib == "torch" else (lambda opt: None)
    ns = {"__name__": "__lesson__", "_truth": guard, "_watch": watch}
    exec(compile(text, str(path), "exec"), ns)
    return ns["tl"], truth, ns


def pair_ops(tl, truth, lib) -> dict:
    """Output node id -> the real array of the op that made it, ops taken in the order they
    ran (torch's bridge also draws ops it ran inside one call, which no hook sees)."""
    nodes = {n.id: n for n in tl.nodes}
    found, j = {}, 0
    number = truth.number_of = {}  # op node id -> its number in truth.ops
    for step in tl.steps:
        if step.kind != "op":
            continue
        op, out = nodes[step.nodes[0]], nodes[step.nodes[1]]
        if j < len(truth.ops) and truth.ops[j][0] == op.op and truth.ops[j][1].shape == out.shape:
            found[out.id] = truth.ops[j][1]
            number[op.id] = j
            j += 1
        else:
            assert lib == "torch", f"op step {step.index} ({op.op}) is not the op that ran"
    assert j == len(truth.ops), f"{len(truth.ops) - j} ops ran that the timeline lacks"
    return found


def pair_leaves(tl, truth) -> dict:
    """Leaf node id -> its truth key, by its first value (leaves are random, so distinct)."""
    found = {}
    for node in tl.nodes:
        if node.kind != "leaf":
            continue
        keys = [k for k, v in truth.first.items() if preview(v) == node.value]
        assert len(keys) == 1, f"leaf {node.name}: {len(keys)} tensors have its first value"
        found[node.id] = keys[0]
    return found


class Histories:
    """The real value and grad of every leaf at any step, from the truth's records and the
    steps that change them (each must match a record: none missed, none made up)."""

    def __init__(self, tl, truth, leaves: dict) -> None:
        self.value, self.grad = {}, {}
        for node_id, key in leaves.items():
            updates = [s.index for s in tl.steps if s.kind == "update" and node_id in s.nodes]
            changes = [
                s.index
                for s in tl.steps
                if s.kind in ("accumulate", "zero_grad", "set_grad") and node_id in s.nodes
            ]
            values, grads = truth.values.get(key, []), truth.grads.get(key, [])
            assert len(updates) == len(values), (
                f"{node_id}: {len(updates)} update steps, {len(values)} updates"
            )
            assert len(changes) == len(grads), (
                f"{node_id}: {len(changes)} grad steps, {len(grads)} changes"
            )
            for k, (kind, _) in zip(changes, grads, strict=True):
                assert (tl.steps[k].kind == "accumulate") == (kind == "acc"), f"step {k}"
            self.value[node_id] = ([-1, *updates], [truth.first[key], *values])
            self.grad[node_id] = ([-1, *changes], [None, *(g for _, g in grads)])

    @staticmethod
    def at(history, k: int):
        steps, values = history
        i = max(j for j, s in enumerate(steps) if s <= k)
        return values[i]


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_every_shown_value_and_grad_is_the_real_tensors(name, lib, tmp_path):
    if lib == "torch":
        pytest.importorskip("torch")
    tl, truth, _ = run(name, lib, tmp_path)
    ops = pair_ops(tl, truth, lib)
    leaves = pair_leaves(tl, truth)
    real = Histories(tl, truth, leaves)
    options = make_options()
    checked = asked = 0
    for k in range(len(tl)):
        graph = tl[k]
        for node in graph.nodes:
            if node.kind != "op":  # every tensor shows numbers, those made inside a call too
                shown = " ".join(label_rows(node, graph, options)[1:])
                assert "not recorded" not in shown and "?" not in shown, f"{k}: {shown}"
            if node.kind == "op" or (node.id not in ops and node.id not in leaves):
                continue
            rows = label_rows(node, graph, options)
            where = f"{name}/{lib} step {k} {node.name}"
            value = ops[node.id] if node.id in ops else Histories.at(real.value[node.id], k)
            check_text(rows[1].removeprefix("value: "), value, where)
            if node.id in leaves and node.requires_grad:
                check_text(
                    rows[2].removeprefix("grad: "), Histories.at(real.grad[node.id], k), where
                )
            elif node.requires_grad:
                assert rows[2].startswith("grad: None"), f"{where}: {rows[2]}"
            checked += 1
        asked += check_questions(tl, k, leaves, real, f"{name}/{lib}")
        check_caption(tl, k, truth, ops, leaves, real, f"{name}/{lib}")
    assert checked > len(tl) and (asked > 0 or name not in ASKED), f"{asked} questions checked"
    check_cards(tl, ops, leaves, real, name, lib)


def check_caption(tl, k: int, truth, ops: dict, leaves: dict, real, where: str) -> None:
    """Step k's caption and explanation: an op's result (`y = x * w = <value> is computed`),
    a leaf's accumulated grad (`w.grad is now <grad>.`) and the upstream gradient a backward
    node received (`upstream ∂loss/∂y = <grad>`) are the real tensors'."""
    step, caption = tl.steps[k], tl.steps[k].caption
    assert "not recorded" not in caption and "?" not in caption, f"{where} step {k}: {caption}"
    panel = explain(tl, k)  # what the player's and the Stepper's explanation say
    assert "not recorded" not in panel and "?" not in panel, f"{where} step {k}: {panel}"
    j = truth.number_of.get(step.nodes[0]) if step.kind == "backward" else None
    if j is not None and ": upstream " in panel.split("\n")[0]:
        said = panel.split("\n")[0].split(" = ", 1)[1]
        check_text(said, truth.upstream[j], f"{where} step {k} upstream")
    if step.kind == "op" and step.nodes[1] in ops:
        said = caption.split(" is computed")[0].rsplit(" = ", 1)[1]
        check_text(said, ops[step.nodes[1]], f"{where} caption {k}")
    elif step.kind == "accumulate" and step.nodes[0] in leaves and ".grad is now " in caption:
        said = caption.split(".grad is now ", 1)[1].removesuffix(".")
        check_text(said, Histories.at(real.grad[step.nodes[0]], k), f"{where} caption {k}")


def check_questions(tl, k: int, leaves: dict, real, where: str) -> int:
    """The quiz's questions before step k about a leaf's grad or value (an element of it):
    their answers are the real tensor's after step k."""
    asked = 0
    for q in candidates(tl, k):
        if len(q.about) != 3 or q.about[0] not in ("grad", "value") or q.about[1] not in leaves:
            continue
        history = (real.grad if q.about[0] == "grad" else real.value)[q.about[1]]
        truth = np.asarray(Histories.at(history, k))[tuple(q.about[2])]
        assert float(q.answer) == pytest.approx(float(truth), rel=1e-5, abs=1e-7), (
            f"{where} step {k}: {q.prompt!r} answers {q.answer}, the tensor holds {truth}"
        )
        asked += 1
    return asked


def check_cards(tl, ops, leaves, real, name, lib) -> None:
    """The player's card data (the text its value and grad rows, tooltips and screen-reader
    labels say, its heatmaps' cells and range) against the real tensors."""
    frames = Frames(tl, get_theme("default"), make_options(full_iterations=None))
    data = details(tl, frames, list(range(len(tl))))
    position = {n.id: i for i, n in enumerate(tl.nodes)}
    for node_id in [*ops, *leaves]:
        card = data["nodes"][position[node_id]]
        for field in ("value", "grad"):
            for k, shown in card.get(field, []):
                if field == "value":
                    truth = ops[node_id] if node_id in ops else Histories.at(real.value[node_id], k)
                elif node_id in leaves:
                    truth = Histories.at(real.grad[node_id], k)
                else:
                    continue
                where = f"{name}/{lib} card {card['name']}.{field} at {k}"
                if not isinstance(shown, dict):
                    if truth is not None and np.ndim(truth) == 0:
                        assert honest(
                            repr(float(shown))[:8].rstrip("."), float(truth)
                        ) or shown == float(truth), where
                    continue
                check_text(shown["text"], truth, where)
                heat = shown.get("heat")
                assert heat is not None, f"{where}: no heatmap"
                cells = block_means(truth, heat["block"])
                np.testing.assert_allclose(
                    [float(c) for c in heat["cells"]], cells, rtol=1e-5, atol=1e-6, err_msg=where
                )
                low, high = heat["range"].split(" … ")
                assert honest(low, float(np.min(truth))) and honest(high, float(np.max(truth))), (
                    where
                )


def test_the_four_cases_of_issue_25_hold():
    """A (7, 10) weight's node shows its grad after backward; 1363.8601 is never drawn
    `1364.0`; the user's t1 is labelled t1 (relu's signed zero is the engine's test)."""
    autoviz.manual_seed(0)
    head = autoviz.nn.Linear(10, 7)
    out = head(autoviz.randn(4, 10)).tanh().sum()
    out.backward()
    dot = autoviz.draw(out).source
    row = re.search(r"<b>head\.weight</b>.*?grad: ([^<]*)<", dot).group(1)
    check_text(row, head.weight.grad.numpy(), "head.weight")
    a = autoviz.tensor(1363.8601, requires_grad=True)
    text = autoviz.draw(a * 1).source
    assert "1364.0" not in text and ("1364<" in text or "1363.86" in text)
    x = autoviz.tensor(1.0, requires_grad=True)
    t1 = x * 3
    out = (x + 1) * t1
    labels = re.findall(r"<b>([^<]*)</b><br/><font[^>]*>value: ([^<]*)<", autoviz.draw(out).source)
    assert ("t1", "3.0") in labels and ("t1", "2.0") not in labels


def torch_made_inside():
    """Tensors torch makes inside one call and never returns to Python: cross_entropy's
    log_softmax, a 1-D input's addmm in nn.Linear (viewed back to 1-D), `w[2, 1:]`'s select, beside
    a transpose Python holds; with the real values computed here by torch itself."""
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    torch.manual_seed(5)
    logits = torch.randn(12, 7, requires_grad=True)
    target = torch.randint(0, 7, (12,))
    lin, x = torch.nn.Linear(3, 2), torch.ones(3)
    w = torch.randn(4, 5, requires_grad=True)
    q = torch.randn(2, 6, 8, requires_grad=True)
    with autoviz.trace_torch() as tl:
        loss = F.cross_entropy(logits, target)
        out = lin(x)
        part = w[2, 1:]
        scores = q @ q.transpose(-2, -1)
        total = loss + out.sum() + part.sum() + scores.sum()
        total.backward()
    with torch.no_grad():
        real = {
            "LogSoftmaxBackward0": F.log_softmax(logits, 1),
            "AddmmBackward0": lin(x)[None],
            "SelectBackward0": w[2],
            "TransposeBackward0": q.transpose(-2, -1),
        }
    return tl, {k: v.detach().numpy() for k, v in real.items()}


def test_a_tensor_torch_made_inside_a_call_shows_its_real_numbers():
    tl, real = torch_made_inside()
    nodes = {n.id: n for n in tl.nodes}
    made = {
        nodes[e.target].id: nodes[e.source].op for e in tl.edges if nodes[e.source].kind == "op"
    }
    options, seen = make_options(), set()
    for node in tl.nodes:
        op = made.get(node.id)
        if op in real and tuple(node.shape) == real[op].shape:
            rows = label_rows(node, tl[len(tl) - 1], options)
            check_text(rows[1].removeprefix("value: "), real[op], f"{op}: {node.name}")
            seen.add(op)
    assert seen == set(real)
    for step in tl.steps:
        assert "not recorded" not in step.caption, step.caption


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
def test_a_broadcast_inputs_gradient_before_the_sum_is_the_real_one(lib):
    """x * w with x (100, 3) and w (3,): what MulBackward0 sends w before the sum back to
    (3,) is upstream × x, at (100, 3), shown with its numbers in the caption and the flow."""
    torch = autoviz if lib == "autoviz" else pytest.importorskip("torch")
    tracer = autoviz.trace if lib == "autoviz" else autoviz.trace_torch
    torch.manual_seed(3)
    x, w = torch.randn(100, 3), torch.randn(3, requires_grad=True)
    with tracer() as tl:
        y = x * w
        loss = (y * y).sum()
        loss.backward()
    real = (2 * (x * w) * x).detach().numpy()
    step = next(
        s
        for s in tl.steps
        if s.kind == "backward" and s.caption.startswith("MulBackward0") and "w gets" in s.caption
    )
    (flow,) = step.flows
    assert tuple(flow.shape) == (100, 3)
    check_text(step.caption.split(" = ", 1)[1].removesuffix("."), real, "caption")
    np.testing.assert_allclose(flow.contribution.min, real.min(), rtol=1e-6)
    np.testing.assert_allclose(flow.contribution.mean, real.astype(np.float64).mean(), rtol=1e-5)


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
def test_a_card_says_backward_sends_an_index_or_a_target_nothing(lib):
    """An embedding's indices and a loss's targets need no gradient: the op's card says that
    backward sends them nothing, rather than a rule it does not run."""
    torch = autoviz if lib == "autoviz" else pytest.importorskip("torch")
    nn, F = torch.nn, torch.nn.functional
    tracer = autoviz.trace if lib == "autoviz" else autoviz.trace_torch
    torch.manual_seed(1)
    emb, ix, Y = nn.Embedding(10, 4), torch.tensor([[1, 2], [2, 3]]), torch.tensor([1, 0])
    with tracer() as tl:
        loss = F.cross_entropy(emb(ix).sum(2), Y)
        loss.backward()
    frames = Frames(tl, get_theme("default"), make_options(full_iterations=None))
    data = details(tl, frames, list(range(len(tl))))
    cards = {n["name"]: n for n in data["nodes"] if n.get("locals")}
    sent = {
        c["expression"]: [(x["name"], x.get("rule")) for x in c["locals"]] for c in cards.values()
    }
    for expression, locals_ in sent.items():
        for name, rule in locals_:
            if name in ("ix", "Y"):
                assert rule == "nothing (requires_grad=False)", (expression, name, rule)
    assert any(name == "ix" for ls in sent.values() for name, _ in ls)
    assert any(name == "Y" for ls in sent.values() for name, _ in ls)
