"""The inspector's data and what it rests on: the heatmaps' colour scale, values="heatmap" in
nodes and frames, re-running a graph with a leaf nudged, and compare()."""

import json
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoviz
from autoviz.export.playerdata import build
from autoviz.render import heat
from autoviz.render.labels import visible
from autoviz.tracing.index import index_of
from autoviz.tracing.replay import ReplayError, nudge
from autoviz.widgets.stepper import nudge_reply
from conftest import lesson_timeline
from programs import logistic_regression, mlp_training, rebinding_loop

HOSTILE = "</script><script>window.__pwned=1</script>\"'&<>\n😈"


# --- the colour scale --------------------------------------------------------------------


def test_the_scale_is_centred_on_zero_and_runs_blue_to_orange():
    assert heat.color(0.0, 1.0) == heat.color(-0.0, 1.0) == "#f5f5f5"
    assert heat.color(1.0, 1.0) == heat.POSITIVE[-1] and heat.color(-1.0, 1.0) == heat.NEGATIVE[-1]
    assert heat.color(5.0, 1.0) == heat.POSITIVE[-1]  # beyond the range: its end
    assert heat.color(0.2, 1.0) == heat.POSITIVE[1] and heat.color(-0.2, 1.0) == heat.NEGATIVE[1]
    assert heat.color(float("nan"), 1.0) == heat.NAN
    assert heat.color(float("inf"), 1.0) == heat.POSITIVE[-1]
    assert heat.color(float("-inf"), 1.0) == heat.NEGATIVE[-1]
    assert heat.color(None, 1.0) == "none"  # not known yet
    assert heat.limit([1.0, -3.0, float("inf"), float("nan")]) == 3.0


def _lightness(hex_color: str) -> float:
    """CIELAB L* of an sRGB colour."""
    r, g, b = (int(hex_color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    f = y ** (1 / 3) if y > 216 / 24389 else (24389 / 27 * y + 16) / 116
    return 116 * f - 16


@settings(max_examples=200, deadline=None)
@given(st.floats(-1, 1), st.floats(-1, 1))
def test_lightness_alone_orders_magnitudes_on_either_side(a, b):
    """A reader who cannot tell the hues apart still reads |x| from lightness: the larger
    magnitude is darker, whichever the signs (the halves match within 1.5 L*); the sign picks
    the hue."""
    if abs(a) < abs(b):
        a, b = b, a
    assert _lightness(heat.color(a, 1.0)) <= _lightness(heat.color(b, 1.0)) + 1.5
    if a != 0:
        side = heat.POSITIVE if a > 0 else heat.NEGATIVE
        assert heat.color(abs(a) if a > 0 else -abs(a), 1.0) == heat.color(a, 1.0)
        assert heat.color(a, abs(a)) == side[-1]


def test_fills_and_range_of_a_matrix():
    value = [[-2.0, 0.0], [1.0, float("nan")]]
    assert heat.grid((2, 2)) == (2, 2) and heat.grid((3,)) == (1, 3)
    # A 3-D tensor's leading dimensions are rows; past 256 cells, blocks of elements are.
    assert heat.grid(()) is None and heat.grid((2, 2, 2)) == (4, 2) and heat.grid((9, 8)) == (9, 8)
    assert heat.grid((512, 512)) == (16, 16) and heat.grid((4, 1000)) == (4, 63)
    assert heat.fills(value, (2, 2)) == [
        heat.NEGATIVE[-1],
        "#f5f5f5",
        heat.color(1.0, 2.0),
        heat.NAN,
    ]
    assert heat.fills(None, (2, 2)) == ["none"] * 4
    assert heat.range_text(value, 4) == "-2.0 … 1.0"


# --- values="heatmap" in nodes and frames -------------------------------------------------


def test_a_weight_matrix_is_drawn_as_one_cell_per_element(pure_engine):
    tl = mlp_training(1)
    svg = tl.draw(step=-1, values="heatmap").svg()
    body = _node_body(svg, tl, "net.0.weight")
    cells = re.findall(r'<polygon class="cell" fill="([^"]*)"', body)
    assert len(cells) == 2 * 8 * 3  # the value's cells, then the grad's
    weight = next(n for n in tl.nodes if n.name == "net.0.weight")
    now = index_of(tl).state(weight, len(tl) - 1)  # after the optimizer's update
    assert cells[:24] == heat.fills(now.value, weight.shape)
    assert cells[24:] == heat.fills(now.grad, weight.shape)
    assert "value: (8, 3) " in body and " … " in body  # the range beside the picture


def test_values_text_and_none(pure_engine):
    tl = lesson_timeline()
    assert "value: 3.0" in tl.draw(values="text").source
    assert "value:" not in tl.draw(values="none").source
    with pytest.raises(ValueError, match=r"unknown values 'colour' \(must be one of"):
        tl.draw(values="colour")
    with pytest.raises(ValueError, match="unknown option 'show_values'"):
        tl.draw(show_values=False)


def test_the_cli_takes_values(tmp_path, pure_engine):
    from autoviz.cli import main

    script = tmp_path / "s.py"
    script.write_text(
        "import autoviz as torch\n"
        "w = torch.ones(2, 3, requires_grad=True)\n"
        "(w * 2).sum().backward()\n"
    )
    out = tmp_path / "f.svg"
    assert main(["render", str(script), "-o", str(out), "--values", "heatmap"]) == 0
    node = re.search(r'<g id="n1" class="node leaf">(.*?)</g>', out.read_text(), re.S).group(1)
    cells = re.findall(r'<polygon fill="([^"]*)" stroke="(?:none|transparent)"', node)
    assert cells == [heat.POSITIVE[-1]] * 6 + [heat.POSITIVE[-1]] * 6  # value 1, grad 2


# --- re-running a graph with a leaf nudged --------------------------------------------------


def test_nudging_w_changes_z_by_grad_times_h():
    result = nudge(lesson_timeline(), 0, "n1", 0.01)
    assert result["output"] == "z" and result["ops"] == 2
    assert result["before"] == 7.0 and math.isclose(result["change"], 0.02, rel_tol=1e-9)


def _scalar_program(ops, a, b):
    x = autoviz.tensor(a, requires_grad=True)
    w = autoviz.tensor(b, requires_grad=True)
    with autoviz.trace() as tl:
        h = x
        for op in ops:
            h = {
                "mul": lambda t: t * w,
                "add": lambda t: t + w,
                "sub": lambda t: w - t,
                "tanh": lambda t: t.tanh(),
                "sigmoid": lambda t: t.sigmoid(),
                "exp": lambda t: (t * 0.1).exp(),
                "sin": lambda t: t.sin(),
            }[op](h)
        h.backward()
    return tl, x, w


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sampled_from(["mul", "add", "sub", "tanh", "sigmoid", "exp", "sin"]),
        min_size=1,
        max_size=6,
    ),
    st.floats(-2, 2),
    st.floats(-2, 2),
)
def test_a_central_difference_of_the_rerun_matches_the_gradient(ops, a, b):
    """(f(w + h) − f(w − h)) / 2h from re-running the recorded graph is the engine's grad."""
    tl, x, w = _scalar_program(ops, a, b)
    ids = {n.name: n.id for n in tl.nodes if n.kind == "leaf"}
    for leaf, name in ((x, "x"), (w, "w")):
        if leaf.grad is None or name not in ids:
            continue
        node_id = ids[name]
        h = 1e-4
        up = nudge(tl, 0, node_id, h)["change"]
        down = nudge(tl, 0, node_id, -h)["change"]
        assert math.isclose((up - down) / (2 * h), leaf.grad.item(), rel_tol=2e-3, abs_tol=2e-4)


def test_an_element_of_a_weight_matrix_is_nudged_through_the_mlp():
    tl = mlp_training(1)
    weight = next(n for n in tl.nodes if n.name == "net.0.weight")
    grad = np.asarray(
        next(s for s in tl.steps if s.kind == "accumulate" and s.nodes == [weight.id]).details[
            "incoming"
        ]
    )
    change = nudge(tl, 0, weight.id, 1e-4, (2, 1))["change"]
    assert math.isclose(change / 1e-4, grad[2, 1], rel_tol=1e-2, abs_tol=1e-5)


def test_what_cannot_be_rerun_is_refused_with_the_reason():
    tl = lesson_timeline()
    with pytest.raises(ReplayError, match="only a leaf tensor can be nudged"):
        nudge(tl, 0, "n4", 0.01)
    with pytest.raises(ReplayError, match="h must be a finite number"):
        nudge(tl, 0, "n1", float("nan"))
    with pytest.raises(ReplayError, match="no graph 3"):
        nudge(tl, 3, "n1", 0.01)
    with pytest.raises(ReplayError, match=r"element \[0\] is not one of w's"):
        nudge(tl, 0, "n1", 0.01, (0,))
    x = autoviz.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with autoviz.trace() as tl2:
        x[0].backward()
    with pytest.raises(ReplayError, match="SelectBackward0 cannot be re-run"):
        nudge(tl2, 0, "n1", 0.01, (0,))
    # A value the re-run does not reproduce (here, tampered with) is refused, never trusted.
    tl3 = lesson_timeline()
    next(n for n in tl3.nodes if n.name == "y").value = 5.0
    with pytest.raises(ReplayError, match="did not give y's recorded value"):
        nudge(tl3, 0, "n1", 0.01)


def test_the_stepper_answers_the_players_nudge():
    tl = lesson_timeline()
    reply = nudge_reply(tl, {"kind": "nudge", "graph": 0, "node": "n1", "h": 0.01})
    assert math.isclose(reply["result"]["change"], 0.02)
    assert nudge_reply(tl, {"graph": "0", "node": "n1", "h": 0.01}) == {
        "error": "a nudge names a graph (a number) and a node id"
    }
    assert "h must be a finite number" in nudge_reply(tl, {"graph": 0, "node": "n1"})["error"]


# --- the inspector's data ------------------------------------------------------------------


def test_the_lesson_cards_facts(pure_engine):
    d = build(lesson_timeline()).data["details"]
    w, _, mul, y = d["nodes"][:4]
    assert (w["name"], w["kind"], w["requires_grad"], w["value"]) == ("w", "leaf", True, [[0, 3.0]])
    assert w["grad"] == [[0, None], [9, 2.0]]  # None until step 9 accumulates 2.0
    assert mul["op"] == "MulBackward0" and mul["expression"] == "w * x"
    assert mul["inputs"] == [0, 1] and mul["output"] == 3
    assert mul["locals"] == [
        {"name": "w", "formula": "x", "numbers": "2.0", "value": 2.0},
        {"name": "x", "formula": "w", "numbers": "3.0", "value": 3.0},
    ]
    assert y["grad_fn"] == "MulBackward0" and "retains_grad" not in y
    assert d["flows"]["8"] == [1.0, [[0, 2.0, 2.0], [1, 3.0, 3.0]]]
    assert d["seeds"] == {"5": [6, 1.0]} and d["roots"] == {"0": 6}


def test_later_iterations_map_their_slots_to_their_own_nodes(pure_engine):
    tl = mlp_training(3)
    d = build(tl).data["details"]
    assert d["aliases"]  # a later iteration is drawn in an earlier one's layout
    for g, alias in d["aliases"].items():
        for slot, i in alias["nodes"].items():
            mine, lead = d["nodes"][i], d["nodes"][int(slot[1:]) - 1]
            assert mine["graph"] == int(g) and 0 <= lead["graph"] < int(g)
            assert (mine["kind"], mine.get("op"), mine["shape"]) == (
                lead["kind"],
                lead.get("op"),
                lead["shape"],
            )


def test_non_finite_values_are_json_and_escaped_names_stay_text(pure_engine):
    a = autoviz.tensor([1000.0, -1.0, 0.0], requires_grad=True, name=HOSTILE)
    with autoviz.trace() as tl:
        (a.log() + a.exp()).backward(autoviz.ones(3))  # inf, nan and -inf
    data = build(tl).data
    text = json.dumps(data, allow_nan=False)  # would raise on a bare NaN or inf
    assert '"inf"' in text and '"-inf"' in text and '"nan"' in text
    assert data["details"]["nodes"][0]["name"].startswith("</script>")


# --- compare --------------------------------------------------------------------------------


def test_a_comparison_page_holds_both_players_and_escapes_its_labels(tmp_path, pure_engine):
    c = autoviz.compare(lesson_timeline(), rebinding_loop(2), labels=(HOSTILE, "loop"))
    page = c.save_html(tmp_path / "c.html").read_text()
    assert page.count('type="application/json"') == 3 and "startComparePage();" in page
    assert "<script><script>" not in page and "window.__pwned=1</script>" not in page
    assert c.labels == [visible(HOSTILE), "loop"] and c.steps == [0, 0]  # a newline spelled out
    c.steps = [-1, 3]
    assert c.steps == [11, 3]
    with pytest.raises(IndexError):
        c.steps = [12, 0]
    assert c.still_svg().count("<svg") == 3 and "&lt;/script&gt;" in c.still_svg()


def test_compare_refuses_what_is_not_two_timelines():
    tl = lesson_timeline()
    with pytest.raises(TypeError, match="expects two Timelines"):
        autoviz.compare(tl, "tl")
    with pytest.raises(ValueError, match="labels must be two names"):
        autoviz.compare(tl, tl, labels=("one",))


def _node_body(svg: str, tl, name: str) -> str:
    node = next(n for n in tl.nodes if n.name == name)
    return re.search(rf'<g id="{node.id}" class="node[^"]*">(.*?)</g>', svg, re.S).group(1)


def test_logistic_regression_is_rerun_through_cross_entropy_and_its_labels():
    """cross_entropy is log_softmax and nll_loss on the recorded labels (a constant input)."""
    tl = logistic_regression()
    weight = next(n for n in tl.nodes if n.name == "weight")
    grad = next(s for s in tl.steps if s.kind == "accumulate" and s.nodes == [weight.id])
    change = nudge(tl, 0, weight.id, 1e-4, (0, 1))["change"]
    assert math.isclose(change / 1e-4, grad.details["incoming"][0][1], rel_tol=1e-2)


def test_every_iteration_of_a_training_loop_reruns_from_its_own_parameters():
    """After optim.SGD changed the weights, iteration 2 re-runs from the new values."""
    tl = mlp_training(3)
    weight = next(n for n in tl.nodes if n.name == "net.0.weight")
    for g in range(3):
        grads = [
            s.details["incoming"]
            for s in tl.steps
            if s.kind == "accumulate" and s.nodes == [weight.id] and s.details["graph"] == g
        ]
        change = nudge(tl, g, weight.id, 1e-4, (1, 2))["change"]
        assert math.isclose(change / 1e-4, grads[0][1][2], rel_tol=2e-2, abs_tol=1e-6)


def fitting_loop(iterations: int = 10):
    """A line fitted with SGD: one graph per iteration."""
    w = autoviz.tensor(1.0, requires_grad=True)
    b = autoviz.tensor(0.0, requires_grad=True)
    opt = autoviz.optim.SGD([w, b], lr=0.05)
    xs, ys = autoviz.tensor([0.0, 1.0, 2.0, 3.0]), autoviz.tensor([1.0, 3.0, 5.0, 7.0])
    with autoviz.trace() as tl:
        for _ in range(iterations):
            opt.zero_grad()
            loss = ((w * xs + b - ys) ** 2).mean()
            loss.backward()
            opt.step()
    return tl


def test_a_long_run_sends_only_what_its_shown_iterations_hold(pure_engine):
    tl = fitting_loop(12)
    data = build(tl, full_iterations=[0, 1, 7], progress=False).data
    d, shown = data["details"], [s["index"] for s in data["steps"]]
    index = index_of(tl)
    graphs = {index.graph_of_step[k] for k in shown}
    for node, facts in zip(tl.nodes, d["nodes"], strict=True):
        in_shown = node.graph in graphs or node.graph == -1
        assert bool(facts) == in_shown, node  # a condensed iteration's node is an empty stub
    kept = [e for e in d["edges"] if e]  # a hidden graph's edge is []
    assert kept and len(kept) < len(tl.edges)
    w = d["nodes"][next(i for i, n in enumerate(tl.nodes) if n.name == "w")]
    ks = [k for k, _ in w["value"]]
    assert len(ks) < 12  # not one change per iteration
    for k in shown:  # yet every shown step reads w's value as it was there
        at = [v for step, v in w["value"] if step <= k][-1]
        assert at == pytest.approx(index.state(tl.nodes[0], k).value)
    assert w["name"] == tl.nodes[0].name == "w"


def test_the_stepper_expands_a_condensed_iteration_on_demand(pure_engine):
    tl = fitting_loop(10)
    stepper = autoviz.Stepper(tl, full_iterations=3)  # the first three, and the last
    its = stepper._data["iterations"]
    assert its["full"] == [0, 1, 2, 9] and its["condensed"][0]["first"] == 3
    stepper._message(stepper, {"kind": "expand", "iteration": 6}, [])  # as the player asks
    its = stepper._data["iterations"]
    assert its["full"] == [0, 1, 2, 6, 9]
    assert stepper.step == tl.iterations[6].steps[0]
    assert stepper.step in [s["index"] for s in stepper._data["steps"]]  # a step of its own
    with pytest.raises(IndexError):
        stepper.expand(10)


def test_timeline_nudge_says_what_the_gradient_predicts_and_what_the_rerun_gives():
    x = autoviz.tensor(2.0, requires_grad=True)
    w = autoviz.tensor(3.0, requires_grad=True)
    b = autoviz.tensor(1.0, requires_grad=True)
    with autoviz.trace() as tl:
        z = w * x * x + b  # x fans out: ∂z/∂x = 2wx = 12
        z.backward()
    result = tl.nudge("x", 0.001)
    assert result.slope == 12.0 and math.isclose(result.predicted, 0.012)
    assert math.isclose(result.change, 0.012003, rel_tol=1e-9)  # 3 × 0.001² more: a curve
    assert repr(result) == (
        "predicted Δz ≈ ∂z/∂x × h = 12.0 × 0.001 = 0.012\n"
        "actual Δz = z(x + h) − z(x) = 13.012 − 13.0 = 0.012"
    )
    assert repr(autoviz.Stepper(tl, step=-1).nudge("x", 0.001)) == repr(result)
    with pytest.raises(ReplayError, match="has no leaf called 'q'"):
        tl.nudge("q")
