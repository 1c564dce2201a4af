"""The `autoviz` command: demo, version, help, drawing options, errors and the README's diagram."""

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import autoviz
from autoviz import cli
from autoviz.cli import main
from autoviz.runscript import run_script

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "autoviz", *args], capture_output=True, text=True, cwd=cwd
    )


def test_demo_prints_results_and_writes_files(tmp_path, engine):
    result = run_cli("demo", "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:4] == [
        "Result z: 7.0",
        "x.grad = tensor(3.)",
        "w.grad = tensor(2.)",
        "b.grad = tensor(1.)",
    ]
    assert lines[4:] == [f"wrote {tmp_path / 'out' / n}" for n in ("graph.svg", "graph.dot")]
    svg = (tmp_path / "out" / "graph.svg").read_text()
    assert svg.count('class="node ') - svg.count('class="node legend') == 7
    assert (tmp_path / "out" / "graph.dot").read_text().startswith("digraph")


def test_demo_default_folder(tmp_path, pure_engine):
    assert run_cli("demo", cwd=tmp_path).returncode == 0
    assert (tmp_path / "autoviz-demo" / "graph.svg").is_file()


def test_version_and_help(capsys):
    assert run_cli("--version").stdout.startswith("autoviz ")
    help_text = run_cli("--help").stdout
    assert "demo" in help_text and "usage: autoviz" in help_text


def test_failure_is_one_line_and_nonzero(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["demo", "--out", str(blocker)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("autoviz: error: ") and err.count("\n") == 1


def test_unknown_command_exits_nonzero():
    result = run_cli("explode")
    assert result.returncode == 2 and "invalid choice" in result.stderr


def test_readme_diagram_is_fresh(tmp_path, pure_engine):
    """assets/lesson-example.svg must be what `autoviz demo` draws today."""
    assert main(["demo", "--out", str(tmp_path)]) == 0
    fresh = (tmp_path / "graph.svg").read_text()
    committed = (ROOT / "assets" / "lesson-example.svg").read_text()
    assert fresh == committed, (
        "assets/lesson-example.svg is stale: regenerate it with "
        "`AUTOVIZ_DOT=graphviz-pure autoviz demo --out /tmp/d && "
        "cp /tmp/d/graph.svg assets/lesson-example.svg`"
    )


# -- the classroom commands: a user's script run under the tracer ------------------------------

LESSON = """\
import autoviz as torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x
z = y + b
z.backward()
print("x.grad =", x.grad)
"""

FAILING = """\
import autoviz as torch


def widen(t):
    return t @ torch.ones(3)


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
c = widen(b)
"""

SVG = "{http://www.w3.org/2000/svg}"


def write_script(folder: Path, text: str, name: str = "lesson.py") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def drawn_nodes(svg_text: str) -> dict:
    """Node id -> label texts, for the nodes a (frame) SVG shows."""
    import xml.etree.ElementTree as ET

    out = {}
    for g in ET.fromstring(svg_text).iter(f"{SVG}g"):
        classes = g.get("class", "").split()
        if classes[:1] == ["node"] and "legend" not in classes and "hidden" not in classes:
            out[g.get("id")] = [t.text for t in g.iter(f"{SVG}text")]
    return out


def test_render_writes_the_final_diagram(tmp_path, pure_engine):
    script = write_script(tmp_path, LESSON)
    result = run_cli("render", str(script), "-o", str(tmp_path / "graph.svg"), "--theme", "dark")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["x.grad = tensor(3.)", f"wrote {tmp_path / 'graph.svg'}"]
    svg = (tmp_path / "graph.svg").read_text()
    nodes = drawn_nodes(svg)
    assert len(nodes) == 7 and ["x", "value: 2.0", "grad: 3.0"] in nodes.values()
    assert "#1e1e1e" in svg  # the dark theme's background


MODULE_SCRIPT = """import autoviz as torch
from autoviz import nn

net = nn.Sequential(nn.Linear(2, 2))
x = torch.tensor([1.0, 2.0], requires_grad=True)
net(x).sum().backward()
"""


def test_scripts_name_parameters_and_modules_after_their_variables(tmp_path, pure_engine):
    script = write_script(tmp_path, MODULE_SCRIPT)
    result = run_cli("render", str(script), "-o", str(tmp_path / "net.dot"))
    assert result.returncode == 0, result.stderr
    dot = (tmp_path / "net.dot").read_text()
    assert "net.0.weight" in dot and "net.0.bias" in dot
    assert "net (Sequential)" in dot and "net.0 (Linear)" in dot


def test_frames_writes_one_svg_per_step(tmp_path, pure_engine):
    script = write_script(tmp_path, LESSON)
    result = run_cli("frames", str(script), "-o", str(tmp_path / "slides"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == f"wrote 12 frames into {tmp_path / 'slides'}"
    files = sorted((tmp_path / "slides").iterdir())
    assert [f.name for f in files] == [f"step-{k:03d}.svg" for k in range(12)]
    shown = [len(drawn_nodes(f.read_text())) for f in files]
    assert shown == [1, 2, 3, 5, 7] + [7] * 7  # x, w, b, then y = w * x, z = y + b; backward


def test_animate_writes_an_animated_svg_and_a_gif(tmp_path, pure_engine):
    from PIL import Image

    script = write_script(tmp_path, LESSON)
    svg = tmp_path / "lesson.svg"
    assert run_cli("animate", str(script), "-o", str(svg)).returncode == 0
    assert svg.read_text().count("@keyframes") > 20 and "<script" not in svg.read_text()
    gif = tmp_path / "lesson.gif"
    result = run_cli("animate", str(script), "-o", str(gif), "--seconds-per-step", "0.5")
    assert result.returncode == 0, result.stderr
    image = Image.open(gif)
    assert image.n_frames == 12 and image.info["duration"] == 500


def test_the_script_runs_as_main_in_its_own_folder(tmp_path, pure_engine):
    """`__name__ == "__main__"`, its folder importable, argv[0] the script, as with `python`."""
    (tmp_path / "helpers.py").write_text("SCALE = 4.0\n")
    script = write_script(
        tmp_path,
        "import sys\nimport autoviz as torch\nfrom helpers import SCALE\n"
        "if __name__ == '__main__':\n"
        "    print('argv', sys.argv)\n"
        "    a = torch.tensor(1.0, requires_grad=True)\n"
        "    (a * SCALE).backward()\n"
        "    print('a.grad', a.grad.item())\n",
    )
    result = run_cli("render", str(script), "-o", str(tmp_path / "g.svg"), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert f"argv [{str(script)!r}]" in result.stdout and "a.grad 4.0" in result.stdout
    # after --, the script's own arguments
    result = run_cli("render", str(script), "-o", str(tmp_path / "g.svg"), "--", "-n", "3")
    assert result.returncode == 0, result.stderr
    assert f"argv [{str(script)!r}, '-n', '3']" in result.stdout


def test_a_script_that_raises_shows_its_traceback_and_writes_nothing(tmp_path, pure_engine):
    script = write_script(tmp_path, FAILING, "broken.py")
    result = run_cli("render", str(script), "-o", str(tmp_path / "g.svg"))
    assert result.returncode == 1
    err = result.stderr
    assert err.startswith("Traceback (most recent call last):\n")
    assert f'File "{script}", line 10, in <module>' in err
    assert f'File "{script}", line 5, in widen' in err and "return t @ torch.ones(3)" in err
    assert "autoviz/" not in err.replace(str(tmp_path), "") and "runpy" not in err
    assert err.splitlines()[-1] == (
        "autoviz: error: broken.py raised RuntimeError, so nothing was written "
        "(--partial writes what was traced before the error)"
    )
    assert not (tmp_path / "g.svg").exists()


def test_partial_writes_what_was_traced_before_the_error(tmp_path, pure_engine):
    script = write_script(tmp_path, FAILING, "broken.py")
    result = run_cli("frames", str(script), "-o", str(tmp_path / "f"), "--partial")
    assert result.returncode == 1
    assert "RuntimeError: " in result.stderr and "Traceback" in result.stderr
    assert result.stderr.splitlines()[-1] == (
        "autoviz: error: broken.py raised RuntimeError: wrote what was traced before it (3 steps)"
    )
    frames = sorted((tmp_path / "f").iterdir())
    assert len(frames) == 3  # the leaf a, then b = a * 2, then the error
    last = frames[-1].read_text()
    assert ["b", "value: shape (2,) [2.0, 4.0]", "grad: None"] in drawn_nodes(last).values()
    # The op that raised is drawn red, with PyTorch's message under the picture.
    assert re.search(r'<g id="n\d+" class="node op error current">', last)


def test_exit_codes_of_sys_exit(tmp_path, pure_engine):
    body = (
        "import sys\nimport autoviz as torch\n"
        "(torch.tensor(1.0, requires_grad=True) * 2).backward()\n"
    )
    ok = write_script(tmp_path, body + "sys.exit(0)\n", "ok.py")
    assert run_cli("render", str(ok), "-o", str(tmp_path / "ok.svg")).returncode == 0
    bad = write_script(tmp_path, body + "sys.exit(3)\n", "bad.py")
    result = run_cli("render", str(bad), "-o", str(tmp_path / "bad.svg"))
    assert result.returncode == 3  # as `python bad.py` exits
    assert result.stderr == (
        "autoviz: error: bad.py exited with code 3, so nothing was written "
        "(--partial writes what was traced before the error)\n"
    )
    assert not (tmp_path / "bad.svg").exists()
    result = run_cli("render", str(bad), "-o", str(tmp_path / "bad.svg"), "--partial")
    assert result.returncode == 3 and (tmp_path / "bad.svg").exists()
    told = write_script(tmp_path, body + "sys.exit('no data found')\n", "told.py")
    result = run_cli("render", str(told), "-o", str(tmp_path / "told.svg"))
    assert result.returncode == 1  # Python prints the message and exits 1
    assert result.stderr.startswith("no data found\nautoviz: error: told.py exited with code 1")


EXIT_BODY = (
    "import sys\nimport autoviz as torch\n(torch.tensor(1.0, requires_grad=True) * 2).backward()\n"
)


@pytest.mark.parametrize(
    "code", ["-1", "256", "True", "False", "2**64", "-2**64", "2**31", "257", "-256", "None"]
)
def test_the_exit_code_is_the_one_python_gives(tmp_path, pure_engine, capsys, code):
    """sys.exit(n) ends autoviz with the status `python script.py` ends with (n modulo 256,
    a number beyond a C long 255); a status of 0 is a run that ended well: the file is written."""
    script = write_script(tmp_path, EXIT_BODY + f"sys.exit({code})\n", "s.py")
    python = subprocess.run([sys.executable, str(script)], capture_output=True).returncode
    out = tmp_path / "s.svg"
    assert cli.main(["render", str(script), "-o", str(out)]) == python
    err = capsys.readouterr().err
    assert out.exists() == (python == 0)
    if python:
        assert err == (
            f"autoviz: error: s.py exited with code {python}, so nothing was written "
            "(--partial writes what was traced before the error)\n"
        )
    else:
        assert err == ""


def test_the_program_ends_with_python_s_status_and_says_the_number(tmp_path, pure_engine):
    script = write_script(tmp_path, EXIT_BODY + "sys.exit(-1)\n", "neg.py")
    result = run_cli("render", str(script), "-o", str(tmp_path / "neg.svg"), "--partial")
    assert result.returncode == 255 and (tmp_path / "neg.svg").exists()
    assert re.fullmatch(
        r"autoviz: error: neg.py exited with code 255: wrote what was traced before it "
        r"\(\d+ steps\)\n",
        result.stderr,
    )
    script = write_script(tmp_path, EXIT_BODY + "sys.exit(True)\n", "true.py")
    result = run_cli("render", str(script), "-o", str(tmp_path / "true.svg"))
    assert result.returncode == 1 and "true.py exited with code 1, so" in result.stderr


@pytest.mark.parametrize(
    "closing", ["sys.stdout.close()", "sys.stdout.close(); sys.stderr.close()"]
)
def test_a_script_that_closes_stdout_still_gets_its_export_and_exit_0(tmp_path, closing):
    """Closed streams stay silent, the progress bar of a 40-step export included."""
    long = "y = torch.tensor(1.0, requires_grad=True)\nfor _ in range(40):\n    y = y * 2\n"
    script = write_script(tmp_path, EXIT_BODY + long + closing + "\n", "quiet.py")
    out = tmp_path / "quiet.html"
    result = run_cli("html", str(script), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert out.exists() and "</html>" in out.read_text(encoding="utf-8")
    assert result.stdout == ""  # as `python quiet.py` prints nothing once stdout is closed
    failing = write_script(tmp_path, EXIT_BODY + closing + "\nsys.exit(4)\n", "fails.py")
    assert run_cli("html", str(failing), "-o", str(out)).returncode == 4


def test_outputs_are_where_the_user_meant_whatever_the_script_chdirs_to(tmp_path, pure_engine):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    body = (
        f"import os\nos.chdir({str(elsewhere)!r})\nimport autoviz as torch\n"
        "(torch.tensor(1.0, requires_grad=True) * 2).backward()\n"
    )
    write_script(tmp_path, body, "moves.py")
    for command, out in (
        ("render", "g.svg"),
        ("html", "p.html"),
        ("frames", "f"),
        ("animate", "a.svg"),
    ):
        result = run_cli(command, "moves.py", "-o", out, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert (tmp_path / out).exists(), command
    assert list(elsewhere.iterdir()) == []


def test_a_script_that_traces_nothing_is_an_error(tmp_path):
    script = write_script(tmp_path, "print('no tensors here')\n", "plain.py")
    result = run_cli("render", str(script), "-o", str(tmp_path / "g.svg"))
    assert result.returncode == 1 and result.stdout == "no tensors here\n"
    assert result.stderr == (
        "autoviz: error: plain.py traced nothing: no autoviz tensor in it required grad, so no "
        "graph was recorded; make the tensors to differentiate with requires_grad=True "
        "(nn.Module parameters do)\n"
    )


@pytest.mark.parametrize("engine", ["autoviz", "torch"])
def test_traced_nothing_says_what_was_missing_for_the_engine(tmp_path, engine):
    """Issue 16.10: the message names what the engine in use was missing, and gives no
    advice meant for the other one."""
    if engine == "torch":
        pytest.importorskip("torch")
    script = write_script(tmp_path, "import torch\nx = torch.ones(2) * 2\n", "plain.py")
    result = run_cli("render", str(script), "-o", str(tmp_path / "g.svg"), "--engine", engine)
    assert result.returncode == 1
    assert result.stderr == (
        f"autoviz: error: plain.py traced nothing: no {engine} tensor in it required grad, so "
        "no graph was recorded; make the tensors to differentiate with requires_grad=True "
        "(nn.Module parameters do)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["render", "{tmp}/missing.py", "-o", "{tmp}/g.svg"],
            "cannot run '{tmp}/missing.py': it does not exist; give the path of a .py file",
        ),
        (
            ["render", "{tmp}", "-o", "{tmp}/g.svg"],
            "cannot run '{tmp}': it is a folder; give the path of a .py file",
        ),
        (
            ["render", "{script}", "-o", "{script}/g.svg"],
            "cannot write '{script}/g.svg': folder '{script}' not found",
        ),
        (
            ["render", "{script}", "-o", "{tmp}"],
            "cannot write '{tmp}': it is a folder; give a file name",
        ),
        (
            ["render", "{script}", "-o", "{tmp}/g.gif"],
            "cannot write '{tmp}/g.gif': unknown suffix '.gif' "
            "(must be one of ['.svg', '.png', '.pdf', '.dot', '.json'])",
        ),
        (
            ["animate", "{script}", "-o", "{tmp}/a.mp4"],
            "cannot write '{tmp}/a.mp4': unknown suffix '.mp4' (must be one of ['.svg', '.gif'])",
        ),
        (
            ["frames", "{script}", "-o", "{script}"],
            "cannot write frames into '{script}': it is a file",
        ),
        (
            ["animate", "{script}", "-o", "{tmp}/a.svg", "--seconds-per-step", "0"],
            "--seconds-per-step must be a number from 0.02 to 600 seconds, got 0.0",
        ),
    ],
)
def test_bad_paths_are_one_line_errors(tmp_path, args, message):
    script = write_script(tmp_path, LESSON)
    fill = {"tmp": str(tmp_path), "script": str(script)}
    result = run_cli(*[a.format(**fill) for a in args])
    assert result.returncode == 1
    assert result.stderr == f"autoviz: error: {message.format(**fill)}\n"
    assert result.stdout == ""  # the script never ran


def test_themes_are_checked_against_the_list(tmp_path):
    result = run_cli("render", "x.py", "-o", "g.svg", "--theme", "neon")
    assert result.returncode == 2
    assert "invalid choice: 'neon' (choose from 'default', 'colorblind', 'projector', 'dark')" in (
        result.stderr
    )


def test_help_lists_the_classroom_commands():
    text = run_cli("--help").stdout
    for command in ("html", "present", "frames", "render", "animate"):
        assert command in text
    assert "--partial" in run_cli("frames", "--help").stdout


def test_frames_and_render_as_png(tmp_path, pure_engine):
    from PIL import Image

    script = write_script(tmp_path, LESSON)
    result = run_cli("frames", str(script), "-o", str(tmp_path / "png"), "--format", "png")
    assert result.returncode == 0, result.stderr
    files = sorted((tmp_path / "png").iterdir())
    assert [f.name for f in files] == [f"step-{k:03d}.png" for k in range(12)]
    sizes = {Image.open(f).size for f in files}
    assert len(sizes) == 1  # one layout: every frame the same size
    assert files[0].read_bytes() != files[-1].read_bytes()
    assert run_cli("render", str(script), "-o", str(tmp_path / "g.png")).returncode == 0
    final = Image.open(tmp_path / "g.png")
    assert final.format == "PNG" and final.size[0] > final.size[1] > 100


def test_render_draws_the_final_graph_in_every_format(tmp_path, engine):
    """The final diagram as autoviz.draw draws it: no step highlight; .pdf where dot runs."""
    script = write_script(tmp_path, LESSON)
    assert run_cli("render", str(script), "-o", str(tmp_path / "g.dot")).returncode == 0
    dot = (tmp_path / "g.dot").read_text()
    assert "current" not in dot and "grad: 3.0" in dot
    result = run_cli("render", str(script), "-o", str(tmp_path / "g.pdf"))
    if engine == "dot":
        assert result.returncode == 0, result.stderr
        assert (tmp_path / "g.pdf").read_bytes().startswith(b"%PDF")
    else:
        assert result.returncode == 1
        assert "graphviz-pure cannot write 'pdf' files. Install Graphviz" in result.stderr


TORCH_LESSON = LESSON.replace("import autoviz as torch", "import torch")


def test_torch_traces_real_pytorch_code(tmp_path, pure_engine):
    pytest.importorskip("torch")
    script = write_script(tmp_path, TORCH_LESSON, "torch_lesson.py")
    result = run_cli("frames", str(script), "-o", str(tmp_path / "f"), "--torch")
    assert result.returncode == 0, result.stderr
    files = sorted((tmp_path / "f").iterdir())
    assert len(files) == 12
    assert ["x", "value: 2.0", "grad: 3.0"] in drawn_nodes(files[-1].read_text()).values()
    # --engine torch is the same; auto (the default) picks torch for it, as it is installed.
    for option in (["--engine", "torch"], []):
        out = tmp_path / f"g{len(option)}"
        result = run_cli("frames", str(script), "-o", str(out), *option)
        assert result.returncode == 0, result.stderr
        assert sorted(p.read_text() for p in out.iterdir()) == sorted(f.read_text() for f in files)


def test_engine_autoviz_runs_a_torch_script_on_autoviz(tmp_path, pure_engine):
    """`import torch` under --engine autoviz is autoviz: the same 12 steps, the same frames."""
    script = write_script(tmp_path, TORCH_LESSON, "torch_lesson.py")
    mine = write_script(tmp_path, LESSON, "lesson.py")
    result = run_cli("frames", str(script), "-o", str(tmp_path / "a"), "--engine", "autoviz")
    assert result.returncode == 0, result.stderr
    assert run_cli("frames", str(mine), "-o", str(tmp_path / "b")).returncode == 0
    got = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(got) == 12 and got == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in got:
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()


def test_a_missing_torch_api_says_so_and_how_to_run_the_script(tmp_path):
    script = write_script(tmp_path, "import torch\ntorch.fft.fft(torch.ones(4))\n", "fft.py")
    result = run_cli("render", str(script), "-o", str(tmp_path / "g.svg"), "--engine", "autoviz")
    assert result.returncode == 1
    assert "NotInAutoviz: torch.fft is not in autoviz: spectral ops are outside" in result.stderr
    assert result.stderr.rstrip().endswith("; --engine torch runs it on real PyTorch")


def test_torch_without_pytorch_installed_is_a_one_line_error(tmp_path):
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "torch.py").write_text("raise ImportError('No module named torch')\n")
    script = write_script(tmp_path, TORCH_LESSON, "torch_lesson.py")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(shadow), str(ROOT)])}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "autoviz",
            "render",
            str(script),
            "-o",
            str(tmp_path / "g.svg"),
            "--torch",
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 1
    assert result.stderr.startswith("autoviz: error: ") and result.stderr.count("\n") == 1
    assert "pip install torch" in result.stderr


def player_data(path: Path) -> dict:
    import json
    import re

    page = path.read_text(encoding="utf-8")
    assert page.lower().startswith("<!doctype html>")
    match = re.search(r'<script type="application/json" id="av-data">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


def test_html_writes_the_player(tmp_path, pure_engine):
    script = write_script(tmp_path, LESSON)
    out = tmp_path / "lesson.html"
    result = run_cli("html", str(script), "-o", str(out), "--quiz", "--theme", "projector")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-2:] == [
        f"wrote {out}",
        "the page asks 6 questions (5 scalar, 1 which-grad)",
    ]
    data = player_data(out)
    assert len(data["steps"]) == 12 and len(data["layouts"]) == 1
    questions = [s["quiz"]["prompt"] for s in data["steps"] if s["quiz"]]
    assert "What is x.grad after this step?" in questions
    # The code panel is the script as written: every line, those that recorded nothing idle.
    rows = [(c["text"], c["role"]) for c in data["code"]]
    assert rows[0] == ("import autoviz as torch", "idle")
    assert ("x = torch.tensor(2.0, requires_grad=True)", "code") in rows
    assert [c["line"] for c in data["code"]] == list(range(1, len(rows) + 1))
    assert data["theme"] == "projector"
    assert run_cli("html", str(script), "-o", str(tmp_path / "x.txt")).stderr == (
        f"autoviz: error: cannot write '{tmp_path / 'x.txt'}': unknown suffix '.txt' "
        "(must be one of ['.html', '.htm'])\n"
    )


def fake_browser(tmp_path: Path, exit_code: int) -> Path:
    """A `$BROWSER` that records the address it was asked to open."""
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {tmp_path / "opened.txt"}\nexit {exit_code}\n')
    browser.chmod(0o755)
    return browser


def present(tmp_path, **env_changes):
    env = {
        k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")
    }
    env.update(env_changes, TMPDIR=str(tmp_path))  # the player's temporary folder goes here
    script = write_script(tmp_path, LESSON)
    return subprocess.run(
        [sys.executable, "-m", "autoviz", "present", str(script)],
        capture_output=True,
        text=True,
        env=env,
    )


def test_present_opens_the_player_in_the_browser(tmp_path, pure_engine):
    result = present(tmp_path, BROWSER=str(fake_browser(tmp_path, 0)))
    assert result.returncode == 0, result.stderr
    written = Path(result.stdout.splitlines()[-1].removeprefix("wrote "))
    assert written.name == "lesson.html" and written.parent.parent == tmp_path
    assert len(player_data(written)["steps"]) == 12
    assert (tmp_path / "opened.txt").read_text().strip() == written.as_uri()


def test_present_without_a_browser_prints_how_to_open_the_file(tmp_path, pure_engine):
    for env in ({}, {"BROWSER": str(fake_browser(tmp_path, 1))}):  # no display; browser fails
        result = present(tmp_path, **env)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        written = Path(lines[-2].removeprefix("wrote "))
        assert written.is_file()
        assert (
            lines[-1]
            == f"no browser could be opened here: open {written.as_uri()} in a web browser"
        )


def test_gif_without_pillow_is_a_one_line_error(tmp_path):
    shadow = tmp_path / "shadow"
    (shadow / "PIL").mkdir(parents=True)
    (shadow / "PIL" / "__init__.py").write_text("raise ImportError('No module named PIL')\n")
    script = write_script(tmp_path, LESSON)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(shadow), str(ROOT)])}
    command = [sys.executable, "-m", "autoviz", "animate", str(script), "-o", "a.gif"]
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == ("autoviz: error: saving a GIF needs Pillow: pip install pillow\n")
    assert not (tmp_path / "a.gif").exists() and result.stdout == ""  # the script never ran


def test_ctrl_c_in_the_script_ends_with_code_130(tmp_path):
    script = write_script(tmp_path, "import autoviz as torch\nraise KeyboardInterrupt\n")
    result = run_cli("render", str(script), "-o", str(tmp_path / "g.svg"))
    assert result.returncode == 130 and result.stderr == "autoviz: interrupted\n"


def test_drawing_and_player_options_reach_the_player(tmp_path, pure_engine):
    script = write_script(tmp_path, LESSON.replace("tensor(2.0,", "tensor(1 / 3,"))
    out = tmp_path / "options.html"
    options = ["--rankdir", "BT", "--precision", "2", "--no-legend", "--ghost", "--quiz"]
    result = run_cli("html", str(script), "-o", str(out), *options)
    assert result.returncode == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    data = player_data(out)
    assert data["rankdir"] == "BT" and data["layouts"][0]["directions"] == ["BT", "LR"]
    assert any(s["quiz"] for s in data["steps"])  # --quiz
    assert 'id="legend"' not in page  # --no-legend
    assert 'class="node leaf ghost"' in page  # --ghost: nodes not made yet drawn faintly
    assert "value: 0.33<" in page and "value: 0.3333" not in page  # --precision 2 (x = 1/3)


def test_the_player_picks_its_direction_unless_told(tmp_path, pure_engine):
    script = write_script(tmp_path, LESSON)
    out = tmp_path / "auto.html"
    assert run_cli("html", str(script), "-o", str(out)).returncode == 0
    data = player_data(out)
    assert data["rankdir"] is None and "legend" in out.read_text(encoding="utf-8")


def test_bad_drawing_options_are_refused_before_the_script_runs(tmp_path, pure_engine):
    marker = tmp_path / "ran"
    script = write_script(tmp_path, f"open({str(marker)!r}, 'w').close()\n" + LESSON)
    result = run_cli("frames", str(script), "-o", str(tmp_path / "f"), "--precision", "0")
    assert result.returncode == 1 and not marker.exists()
    assert result.stderr == ("autoviz: error: precision must be an integer from 1 to 17, got 0\n")
    result = run_cli("render", str(script), "-o", str(tmp_path / "r.svg"), "--rankdir", "XY")
    assert result.returncode == 1 and not marker.exists()
    assert result.stderr == (
        "autoviz: error: unknown rankdir 'XY' (must be one of ['LR', 'TB', 'BT', 'RL'])\n"
    )


PICTURE_COMMANDS = ["html", "present", "frames", "render", "animate"]


@pytest.mark.parametrize("command", PICTURE_COMMANDS)
def test_every_drawing_option_of_draw_is_a_flag_with_help(command):
    """Each field of the renderer's Options (and draw's timeout) is a flag of every
    picture-writing command, with help text; but `advice`, whom a page's notes speak to,
    which the CLI sets itself (its pages speak of its flags)."""
    from autoviz.render.dot import Options

    text = " ".join(run_cli(command, "--help").stdout.split())
    names = [
        f.name for f in dataclasses.fields(Options) if f.name not in ("full_iterations", "advice")
    ]
    assert "--advice" not in text
    for name in [*names, "timeout"]:
        flag = "--" + name.replace("_", "-")
        assert re.search(rf"{flag}\b[^\[]*? [a-z(]", text), f"{command} {flag} has no help"
    takes_iterations = command != "render"  # one graph: the final one
    assert ("--full-iterations" in text) is takes_iterations


# (flags, the error the Python API gives for the same value: draw(z, **options))
BAD_DRAWING = [
    (["--depth", "-1"], {"depth": -1}),
    (["--depth", "two"], {"depth": "two"}),
    (["--collapse-above", "0"], {"collapse_above": 0}),
    (["--max-nodes", "many"], {"max_nodes": "many"}),
    (["--op-label", "both!"], {"op_label": "both!"}),
    (["--values", "colour"], {"values": "colour"}),
    (["--precision", "18"], {"precision": 18}),
    (["--timeout", "-3"], {"timeout": -3.0}),
    (["--timeout", "soon"], {"timeout": "soon"}),
]


@pytest.mark.parametrize(("flags", "options"), BAD_DRAWING, ids=lambda v: str(v))
def test_a_bad_drawing_value_gets_the_python_apis_error(tmp_path, flags, options):
    marker = tmp_path / "ran"
    script = write_script(tmp_path, f"open({str(marker)!r}, 'w').close()\n" + LESSON)
    with pytest.raises(ValueError) as raised:
        autoviz.draw(autoviz.tensor(1.0, requires_grad=True) * 2, **options)
    for command, out in (("render", "r.svg"), ("html", "p.html"), ("frames", "f")):
        result = run_cli(command, str(script), "-o", str(tmp_path / out), *flags)
        assert result.returncode == 1 and not marker.exists(), command
        assert result.stderr == f"autoviz: error: {raised.value}\n", command


def test_model_drawing_options_reach_the_picture(tmp_path, pure_engine):
    script = write_script(
        tmp_path,
        "import autoviz as torch\n"
        "torch.manual_seed(0)\n"
        "net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))\n"
        "loss = net(torch.randn(4, 2)).sum()\n"
        "loss.backward()\n",
    )
    boxes = tl_dot(tmp_path, script, "render", "--depth", "0")
    assert "Sequential" in boxes and "AddmmBackward0" not in boxes  # net drawn as one box
    opened = tl_dot(
        tmp_path, script, "render", "--depth", "0", "--expand", "net", "--expand", "net.0"
    )
    assert opened.count("AddmmBackward0") == 1 and "Linear" in opened  # net.2 still a box
    saved = tl_dot(tmp_path, script, "render", "--show-saved", "--hide-inner-tensors")
    assert "_saved_mat1" in saved and "net.0.out" not in saved
    names = tl_dot(tmp_path, script, "render", "--op-label", "symbol", "--no-show-grads")
    assert "AddmmBackward0" not in names and "grad:" not in names
    assert "Backward0" in tl_dot(tmp_path, script, "render", "--op-label", "name")


def test_frames_render_and_animate_take_the_drawing_options(tmp_path, pure_engine):
    script = write_script(tmp_path, LESSON)
    common = ["--rankdir", "TB", "--no-legend", "--precision", "3"]
    frames = tmp_path / "frames"
    assert run_cli("frames", str(script), "-o", str(frames), "--ghost", *common).returncode == 0
    first = (frames / "step-000.svg").read_text(encoding="utf-8")
    assert 'id="legend"' not in first and "ghost" in first
    assert "rankdir=TB" in tl_dot(tmp_path, script, "render", *common)
    animation = tmp_path / "a.svg"
    assert run_cli("animate", str(script), "-o", str(animation), *common).returncode == 0
    assert 'id="legend"' not in animation.read_text(encoding="utf-8")


def tl_dot(tmp_path, script, command, *options) -> str:
    out = tmp_path / "final.dot"
    result = run_cli(command, str(script), "-o", str(out), *options)
    assert result.returncode == 0, result.stderr
    return out.read_text(encoding="utf-8")


HELP = {
    "--theme": "colours and type",
    "--rankdir": "which way the graph flows",
    "--precision": "significant digits",
    "--legend, --no-legend": "draw the legend",
    "--quiz": "to predict before a step reveals it",
    "--quiz-every": "at most one question every N steps",
    "--ghost": "show the nodes not made yet faintly",
}


@pytest.mark.parametrize("command", ["html", "present", "frames", "render", "animate"])
def test_every_option_has_help_text(command):
    text = " ".join(run_cli(command, "--help").stdout.split())  # unwrapped
    quiz = ("html", "present")
    takes = {"--quiz": quiz, "--quiz-every": quiz, "--ghost": ("html", "present", "frames")}
    for option, words in HELP.items():
        if command not in takes.get(option, (command,)):
            assert option not in text
            continue
        assert option in text and words in text, option


ENDS_AS_PYTHON_WOULD = """
import atexit
import sys

import autoviz as torch

class Finalized:
    def __del__(self):
        sys.stderr.write("finalized\\n")  # needs the script's `sys` still bound

keep = Finalized()
log = open("log.txt", "w")  # never closed: Python flushes it when the script's globals go
saved = open("saved.txt", "w")

def save():
    saved.write(f"loss {loss.item()}\\n")  # an exit handler reads the script's globals
    saved.close()

atexit.register(save)
w = torch.ones(3, requires_grad=True)
loss = (w * 2).sum()
loss.backward()
log.write("written, never closed\\n")
"""


@pytest.mark.parametrize("command", ["html", "render"])
def test_a_script_ends_as_it_would_under_python(tmp_path, command, pure_engine):
    """The process's exit runs the script's atexit handlers with its globals, then drops those
    globals, latest first: a file it left open is flushed, finalizers find what they import."""
    script = tmp_path / "ends.py"
    script.write_text(ENDS_AS_PYTHON_WOULD, encoding="utf-8")
    suffix = ".html" if command == "html" else ".svg"
    result = run_cli(command, str(script), "-o", str(tmp_path / f"out{suffix}"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "log.txt").read_text() == "written, never closed\n"
    assert (tmp_path / "saved.txt").read_text() == "loss 6.0\n"
    assert result.stderr.count("finalized") == 1 and "Error" not in result.stderr


CHAIN = """\
import autoviz as torch

w = torch.tensor(1.5, requires_grad=True)
y = w
for _ in range(12):
    y = (y * w).tanh()
y.backward()
"""


@pytest.mark.parametrize("command", ["frames", "html", "animate"])
def test_an_export_says_which_graphs_it_shows_only_as_a_summary(
    tmp_path, pure_engine, capsys, command
):
    """A graph over --max-nodes (or past --timeout) is written as one summary picture: the
    export still succeeds, and the command says so, with its own flags for the advice."""
    script = write_script(tmp_path, CHAIN)
    out = tmp_path / {"frames": "slides", "html": "a.html", "animate": "a.svg"}[command]
    assert main([command, str(script), "-o", str(out), "--max-nodes", "20"]) == 0
    said = capsys.readouterr()
    last = len(run_script(script, [], engine="autoviz").timeline) - 1
    assert f"autoviz: steps 0–{last:,} (a graph of " in said.err
    assert "were not drawn, the export shows each as one summary picture" in said.err
    assert "more than --max-nodes 20" in said.err and "max_nodes=" not in said.err
    if command == "frames":
        assert said.out.splitlines()[-1] == f"wrote 1 frame into {out}"
    assert main([command, str(script), "-o", str(out)]) == 0  # the same graph fits by default
    assert "summary" not in capsys.readouterr().err


def test_a_drawing_error_names_the_command_line_s_flags(tmp_path, pure_engine, capsys):
    script = write_script(tmp_path, CHAIN)
    out = str(tmp_path / "g.svg")
    assert main(["render", str(script), "-o", out, "--max-nodes", "20"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("autoviz: error: this diagram would draw ")
    assert "more than --max-nodes 20" in err and "raise --max-nodes if" in err
    assert "max_nodes=" not in err
    assert cli._as_flags("raise the limit with the timeout= argument") == (
        "raise the limit with the --timeout option"
    )
    assert (
        cli._as_flags(
            "depth=1 (or a smaller collapse_above=); hide_inner_tensors=None (or True) leave"
        )
        == "--depth 1 (or a smaller --collapse-above); --hide-inner-tensors leave"
    )


LOOP = """\
import autoviz as torch

w = torch.tensor(1.5, requires_grad=True)
for it in range(4):
    y = w
    for _ in range(12):
        y = (y * w).tanh()
    y.backward()
"""


def test_a_loop_s_graphs_not_drawn_are_reported_in_one_line(tmp_path, pure_engine, capsys):
    script = write_script(tmp_path, LOOP)
    assert main(["frames", str(script), "-o", str(tmp_path / "s"), "--max-nodes", "20"]) == 0
    said = capsys.readouterr()
    assert said.out.splitlines()[-1] == f"wrote 4 frames into {tmp_path / 's'}"
    (line,) = [x for x in said.err.splitlines() if x.startswith("autoviz: ")]
    assert line.startswith("autoviz: steps 0–") and " and 3 more graphs like it were " in line
