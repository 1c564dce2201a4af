"""`autoviz lessons [DIR]`: copies the notebooks for a student, never overwriting by accident."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def run_cli(*args, cwd, pythonpath=None):
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run(
        [sys.executable, "-m", "autoviz", "lessons", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
    )


def test_copies_every_notebook_into_the_default_folder(tmp_path):
    result = run_cli(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    copied = tmp_path / "autoviz-lessons"
    assert [p.name for p in sorted(copied.iterdir())] == [p.name for p in NOTEBOOKS]
    assert len(NOTEBOOKS) == 8
    for original in NOTEBOOKS:
        assert (copied / original.name).read_bytes() == original.read_bytes()
    assert result.stdout.splitlines()[:2] == [
        "copied 8 lesson notebooks into autoviz-lessons",
        "open them with: jupyter lab autoviz-lessons",
    ]


def test_refuses_to_overwrite_a_students_work_without_force(tmp_path):
    target = tmp_path / "my lessons"
    assert run_cli(str(target), cwd=tmp_path).returncode == 0
    edited = target / "01_computation_graphs.ipynb"
    edited.write_text("my own notes")
    result = run_cli(str(target), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == (
        f"autoviz: error: {target} already has 01_computation_graphs.ipynb and 7 more lesson "
        "notebooks: pass --force to overwrite them, or name another folder\n"
    )
    assert edited.read_text() == "my own notes"

    result = run_cli(str(target), "--force", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert edited.read_bytes() == NOTEBOOKS[0].read_bytes()
    assert f"jupyter lab '{target}'" in result.stdout  # quoted: the path has a space


def test_a_file_in_the_way_is_a_one_line_error(tmp_path):
    (tmp_path / "lessons.py").write_text("print('mine')\n")
    result = run_cli("lessons.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == (
        "autoviz: error: lessons.py is a file, not a folder: name a folder to copy into\n"
    )


def test_wheel_layout_finds_the_packaged_copy(tmp_path):
    """pyproject.toml puts notebooks/ into the wheel as autoviz/lessons/, where the CLI looks."""
    config = (ROOT / "pyproject.toml").read_text()
    assert (
        '[tool.hatch.build.targets.wheel.force-include]\n"notebooks" = "autoviz/lessons"' in config
    )
    site = tmp_path / "site"  # an installed wheel's layout: no notebooks/ beside the package
    shutil.copytree(ROOT / "autoviz", site / "autoviz")
    shutil.copytree(ROOT / "notebooks", site / "autoviz" / "lessons")
    result = run_cli("out", cwd=tmp_path, pythonpath=site)
    assert result.returncode == 0, result.stderr
    assert len(list((tmp_path / "out").glob("*.ipynb"))) == 8
