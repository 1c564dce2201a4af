"""The benchmarks' own rules: one thread for BLAS and torch, alternated contenders, one table."""

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(p for p in BENCHMARKS.glob("*.py") if p.name not in ("harness.py", "run_all.py"))
HEAVY = {"numpy", "torch", "autoviz", "torchviz", "micrograd"}


def imports(path: Path) -> list:
    """Top-level module names imported by a script, in order."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_benchmark_pins_threads_before_numpy_or_torch(script):
    names = imports(script)
    assert "harness" in names, f"{script.name} does not import harness (one BLAS thread)"
    first_heavy = next((i for i, n in enumerate(names) if n in HEAVY), len(names))
    assert names.index("harness") < first_heavy


def test_run_all_runs_every_benchmark():
    spec = importlib.util.spec_from_file_location("run_all", BENCHMARKS / "run_all.py")
    run_all = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_all)
    assert sorted(run_all.BENCHMARKS) == sorted(p.stem for p in SCRIPTS)


def test_the_performance_page_has_a_block_for_every_benchmark_and_the_summary(tmp_path):
    spec = importlib.util.spec_from_file_location("run_all", BENCHMARKS / "run_all.py")
    run_all = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_all)
    assert BENCHMARKS.parent / "docs" / "performance.md" == run_all.PAGE
    readme = tmp_path / "performance.md"
    readme.write_text(run_all.PAGE.read_text(encoding="utf-8"))
    outputs = {name: f"| {name} table |" for name in ("summary", *run_all.BENCHMARKS)}
    assert sorted(run_all.update_readme(outputs, readme)) == sorted(outputs)
    text = readme.read_text(encoding="utf-8")
    for name in outputs:
        assert f"<!-- bench:{name} -->\n\n| {name} table |\n\n<!-- /bench:{name} -->" in text
        assert text.count(f"<!-- bench:{name} -->") == 1, f"two {name} blocks (a merge's?)"


def test_a_run_of_some_benchmarks_keeps_the_others_rows_in_the_summary():
    spec = importlib.util.spec_from_file_location("run_all", BENCHMARKS / "run_all.py")
    run_all = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_all)
    page = run_all.PAGE.read_text(encoding="utf-8")
    rows = [{"benchmark": "trace.py", "measure": "m", "unit": "x", "value": 0.5, "target": 1}]
    rows[0] |= {"low": 0.4, "high": 0.6, "met": True}
    merged = run_all.merged_summary(page, run_all.table(rows), ["trace"])
    lines = merged.splitlines()
    assert lines[:2] == run_all.HEADER
    assert [line for line in lines if line.startswith("| trace.py")] == [
        "| trace.py | m | ≤ 1x | 0.50x (0.40–0.60x) | yes |"
    ]
    old = [line for line in page.splitlines() if line.startswith("| engine.py")]
    assert old and [line for line in lines if line.startswith("| engine.py")] == old
    benchmarks = [run_all.script(line) for line in lines[2:]]
    assert benchmarks == sorted(benchmarks, key=run_all.BENCHMARKS.index)


def test_alternate_rotates_the_order_and_pairs_ratios():
    sys.modules.pop("harness", None)
    sys.path.insert(0, str(BENCHMARKS))
    try:
        with pytest.warns(UserWarning, match="imported after numpy"):
            import harness
    finally:
        sys.path.remove(str(BENCHMARKS))
    order = []
    runs = harness.alternate({"a": lambda: order.append("a"), "b": lambda: order.append("b")}, 3)
    assert order == ["a", "b", "b", "a", "a", "b", "b", "a"]  # a warm-up round, then 3
    assert [len(v) for v in runs.values()] == [3, 3]
    assert harness.ratios([2.0, 3.0], [1.0, 2.0]) == [2.0, 1.5]
    assert harness.spread([1.0, 2.0, 3.0, 4.0, 5.0]) == (3.0, 2.0, 4.0)
