"""The `autoviz` command: demo, version, help, errors and the README's diagram."""

import subprocess
import sys
from pathlib import Path

from autoviz.cli import main

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
