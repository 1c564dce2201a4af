"""Run every benchmark and print one table: each measure, its target, the value, met or not.

    python benchmarks/run_all.py --quick            # every benchmark's --quick run
    python benchmarks/run_all.py --quick --readme   # and put their tables in docs/performance.md

Each benchmark runs as a script of its own (BLAS and torch pinned to one thread, contenders
alternated, a ratio the median of paired ratios with its middle half) and appends its measures
to a file this script reads; its own tables are kept in benchmarks/latest.md. With --readme,
each block of the docs' performance page (docs/performance.md) between `<!-- bench:NAME -->`
and `<!-- /bench:NAME -->` is replaced by the tables NAME.py printed in this run (with --only,
the summary keeps the other benchmarks' rows).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGE = HERE.parent / "docs" / "performance.md"  # where --readme puts the tables
BENCHMARKS = ("engine", "trace", "bridge", "render", "loops", "player", "animation", "stepper")
BENCHMARKS += ("random_numbers", "import_time", "refusal", "timeline_json", "vs_torchlens")
BENCHMARKS += ("big_graphs",)


def run(name: str, quick: bool, targets: Path) -> tuple[str, float, int]:
    """One benchmark's printed output, its seconds and its exit code."""
    command = [sys.executable, str(HERE / f"{name}.py")] + ["--quick"] * quick
    env = {**os.environ, "AUTOVIZ_BENCH_TARGETS": str(targets)}
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    out = proc.stdout + (f"\n(exit code {proc.returncode})\n{proc.stderr}" * bool(proc.returncode))
    return out, time.perf_counter() - start, proc.returncode


def fmt(row: dict) -> tuple[str, str]:
    """The value (with its spread for a paired ratio) and the target, as text."""
    unit, value = row["unit"], row["value"]
    if value == float("inf"):
        shown = "did not finish"
    elif unit == "x":
        shown = f"{value:.2f}x"
        if row["low"] is not None and row["high"] != row["low"]:
            shown += f" ({row['low']:.2f}–{row['high']:.2f}x)"
    else:
        shown = f"{value:.3g} {unit}"
    return shown, f"≤ {row['target']:g}{unit if unit == 'x' else ' ' + unit}"


HEADER = ["| benchmark | measure | target | measured | met |", "|---|---|---:|---:|:---:|"]


def table(rows: list) -> str:
    lines = list(HEADER)
    for row in rows:
        shown, target = fmt(row)
        met = "yes" if row["met"] else "**no**"
        lines.append(f"| {row['benchmark']} | {row['measure']} | {target} | {shown} | {met} |")
    return "\n".join(lines)


def script(line: str) -> str:
    """The benchmark a summary row is of (`| trace.py | ...` and `| refusal | ...` alike)."""
    return line.split("|")[1].strip().removesuffix(".py")


def merged_summary(page: str, new: str, names: list) -> str:
    """The page's summary table with the rows of `names` replaced by `new`'s (a run of some
    benchmarks only keeps the others' rows), in the order of BENCHMARKS."""
    block = re.search(r"<!-- bench:summary -->\n(.*?)<!-- /bench:summary -->", page, re.S)
    old = [line for line in (block[1] if block else "").splitlines() if line.startswith("| ")]
    kept = [line for line in old[1:] if script(line) not in names]  # old[0]: the header
    rows = kept + new.splitlines()[2:]
    order = {name: k for k, name in enumerate(BENCHMARKS)}
    rows.sort(key=lambda line: order.get(script(line), len(order)))  # stable: measures' order
    return "\n".join([*HEADER, *rows])


def update_readme(outputs: dict, readme: Path) -> list:
    """Replace each bench:NAME block of the performance page by what NAME.py printed (its markdown
    tables and lines; `summary` is the table of targets); the names replaced."""
    text, done = readme.read_text(encoding="utf-8"), []
    for name, out in outputs.items():
        pattern = re.compile(rf"(<!-- bench:{name} -->\n).*?(<!-- /bench:{name} -->)", re.S)
        if pattern.search(text):
            lines = [line for line in out.splitlines() if not line.startswith("(exit code")]
            body = "\n".join(lines).strip()
            text = pattern.sub(lambda m, b=body: f"{m[1]}\n{b}\n\n{m[2]}", text)
            done.append(name)
    readme.write_text(text, encoding="utf-8")
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="each benchmark's --quick run")
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS, help="run these only")
    parser.add_argument(
        "--readme", action="store_true", help="put the tables in docs/performance.md"
    )
    args = parser.parse_args()
    names = args.only or BENCHMARKS
    outputs, rows, started = {}, [], time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        targets = Path(folder) / "targets.jsonl"
        for name in names:
            print(f"running {name}.py ...", file=sys.stderr, flush=True)
            out, seconds, code = run(name, args.quick, targets)
            outputs[name] = out
            print(f"  {seconds:.0f} s" + (f", exit code {code}" * bool(code)), file=sys.stderr)
        if targets.exists():
            rows = [json.loads(line) for line in targets.read_text().splitlines()]
    total = time.perf_counter() - started
    latest = "\n\n".join(f"## {name}.py\n\n{out.strip()}" for name, out in outputs.items())
    summary = table(rows)
    (HERE / "latest.md").write_text(
        f"# benchmarks/run_all.py{' --quick' * args.quick}: {total:.0f} s\n\n"
        f"{summary}\n\n{latest}\n",
        encoding="utf-8",
    )
    print(summary)
    met = sum(row["met"] for row in rows)
    print(f"\n{met} of {len(rows)} targets met; {total:.0f} s; tables in benchmarks/latest.md")
    if args.readme:
        tally = f"{met} of {len(rows)} targets met; the whole run took {total / 60:.1f} minutes."
        if args.only:
            summary = merged_summary(PAGE.read_text(encoding="utf-8"), summary, names)
            lines = summary.splitlines()[2:]
            met = sum(line.rstrip(" |").endswith("yes") for line in lines)
            tally = f"{met} of {len(lines)} targets met; {', '.join(names)} run again on its own."
        outputs = {"summary": f"{summary}\n\n{tally}", **outputs}
        done = update_readme(outputs, PAGE)
        names = ", ".join(done) or "no benchmark"
        print(f"{PAGE.relative_to(HERE.parent)}: tables of {names} replaced")


if __name__ == "__main__":
    main()
