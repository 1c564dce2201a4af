"""`autoviz html --quiz` as a teacher drives it: how many questions, of what kinds, how often,
what it says, and plainly when a program gives none."""

import itertools

from test_cli import LESSON, player_data, run_cli, write_script

MLP = """\
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x, y = torch.randn(4, 3), torch.randn(4, 1)
for _ in range(3):
    opt.zero_grad()
    loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
"""

FORWARD_ONLY = """\
import autoviz as torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * 3).sum()
"""


def asked(path) -> list:
    return [s["quiz"] for s in player_data(path)["steps"] if s["quiz"]]


def test_the_mlp_page_holds_many_distinct_questions(tmp_path, pure_engine):
    script = write_script(tmp_path, MLP, "mlp.py")
    out = tmp_path / "mlp.html"
    result = run_cli("html", str(script), "-o", str(out), "--quiz", "--engine", "autoviz")
    assert result.returncode == 0, result.stderr
    questions = asked(out)
    assert len({q["prompt"] for q in questions}) >= 6
    kinds = {q["kind"] for q in questions}
    assert {"shape", "element", "broadcast", "which-grad", "update", "accumulation"} <= kinds
    said = result.stdout.splitlines()[-1]
    assert said.startswith(f"the page asks {len(questions)} questions (")
    assert f"{sum(q['kind'] == 'shape' for q in questions)} shape" in said


def test_a_plan_picks_how_many_and_which_kinds(tmp_path, pure_engine):
    script = write_script(tmp_path, MLP, "mlp.py")
    out = tmp_path / "mlp.html"
    plan = "kinds=shape,element,which-grad"
    result = run_cli("html", str(script), "-o", str(out), "--quiz", plan, "--quiz-every", "4")
    assert result.returncode == 0, result.stderr
    questions = asked(out)
    assert {q["kind"] for q in questions} == {"shape", "element", "which-grad"}
    steps = [s["index"] for s in player_data(out)["steps"] if s["quiz"]]
    assert all(b - a >= 4 for a, b in itertools.pairwise(steps))
    result = run_cli("html", str(script), "-o", str(out), "--quiz=5,kinds=shape,sign")
    assert result.returncode == 0, result.stderr
    assert len(asked(out)) == 5 and {q["kind"] for q in asked(out)} == {"shape", "sign"}
    result = run_cli("html", "--quiz", str(script), "-o", str(out))  # a bare --quiz first
    assert result.returncode == 0, result.stderr
    assert len(asked(out)) > 5


def test_no_questions_is_said_plainly(tmp_path, pure_engine):
    script = write_script(tmp_path, FORWARD_ONLY)
    out = tmp_path / "f.html"
    result = run_cli("html", str(script), "-o", str(out), "--quiz")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        "--quiz: the page asks no questions: the script never runs backward(), and the "
        "questions are about what it does"
    )
    assert asked(out) == []
    lesson = write_script(tmp_path, LESSON)
    result = run_cli("html", str(lesson), "-o", str(out), "--quiz", "kinds=update")
    assert result.stdout.splitlines()[-1] == (
        "--quiz: the page asks no questions: none of its steps asks a question of the kinds "
        "given (update)"
    )
    result = run_cli("html", str(lesson), "-o", str(out))
    assert result.stdout.splitlines()[-1] == f"wrote {out}"  # without --quiz: nothing said


def test_a_bad_plan_is_refused_before_the_script_runs(tmp_path):
    script = write_script(tmp_path, "print('ran')\n")
    out = str(tmp_path / "x.html")
    result = run_cli("html", str(script), "-o", out, "--quiz", "kinds=shapes")
    assert result.returncode == 1 and "ran" not in result.stdout
    assert result.stderr.startswith("autoviz: error: unknown quiz kind 'shapes' (must be one of")
    result = run_cli("html", str(script), "-o", out, "--quiz", "count=six")
    assert result.stderr == "autoviz: error: --quiz: count takes one number or all, got 'six'\n"
    result = run_cli("html", str(script), "-o", out, "--quiz-every", "0")
    assert result.returncode == 2 and "expected a number of steps >= 1, got '0'" in result.stderr
