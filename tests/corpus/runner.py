"""Run the corpus's lesson scripts under real PyTorch or under autoviz, and compare what they
print: exactly, and with every number compared at a relative tolerance.

    python tests/corpus/runner.py            # the table: identical / within 1e-4 / ran
    python tests/corpus/runner.py --diff t03  # one script's output under both, side by side
    python tests/corpus/runner.py --spread    # also: within what torch varies across its kernels

Each engine runs every script in one child process (PyTorch is imported once), as `__main__`
in a fresh namespace and an empty working folder; under autoviz inside `autoviz.as_torch()`.
"""

import contextlib
import difflib
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"
ROOT = HERE.parent.parent
REL_TOL = 1e-4
ABS_TOL = 1e-6  # for numbers printed as zero, or nearly: -0.0000 against 0.0000
# The scripts whose output depends on PyTorch's random numbers (manual_seed, randn, default
# nn.Linear initialisation, shuffling): they match because autoviz draws torch's numbers.
SEEDED = {
    "t17_poly_nn_sequential",
    "t18_poly_optim",
    "t19_poly_custom_module",
    "t21_two_layer_by_hand",
    "t23_two_layer_nn",
    "t25_custom_module_net",
    "t31_dataloader_shuffle",
    "t35_seeded_initialisation",
    "t36_linear_regression_synthetic",
    "t90_d2l_batchnorm_concise",
}
# PyTorch's own results move with the CPU kernels it picks: its vectorised code per instruction
# set (ATEN_CPU_CAPABILITY) and MKL's code path (MKL_CBWR). --spread runs torch under each too.
KERNEL_VARIANTS = (
    {"ATEN_CPU_CAPABILITY": "default"},
    {"ATEN_CPU_CAPABILITY": "avx2"},
    {"MKL_CBWR": "COMPATIBLE"},
)
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")  # an object's address differs from run to run
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|\bnan\b|\binf\b")


def names() -> list[str]:
    """The scripts' names in their numbers' order (t99 before t100)."""
    return sorted((p.stem for p in SCRIPTS.glob("t*.py")), key=lambda n: int(n[1:].split("_")[0]))


# -- running (in the child process) ----------------------------------------------------------
def _run_one(path: Path, engine: str) -> dict:
    out = io.StringIO()
    error = None
    folder = tempfile.mkdtemp(prefix="corpus-")
    here = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), _engine(engine):
            import runpy

            runpy.run_path(str(path), run_name="__main__")
    except BaseException:
        error = traceback.format_exc(limit=-3)
    finally:
        os.chdir(here)
        _reset(engine)
    return {"stdout": _ADDRESS.sub(" at 0x…", out.getvalue()), "error": error}


def _engine(engine: str):
    if engine == "torch":
        return contextlib.nullcontext()
    import autoviz

    return autoviz.as_torch()


def _reset(engine: str) -> None:
    """Undo the global settings a script may change (print options, the default dtype)."""
    module = __import__("torch" if engine == "torch" else "autoviz")
    module.set_printoptions(profile="default")
    module.set_printoptions(sci_mode=None)
    module.set_default_dtype(module.float32)


def _child(engine: str, selected: list[str]) -> None:
    import warnings

    warnings.simplefilter("ignore")  # warnings go to stderr; only printed output is compared
    results = {name: _run_one(SCRIPTS / f"{name}.py", engine) for name in selected}
    sys.stdout.write(json.dumps(results))


def run_all(engine: str, selected: list[str] | None = None, kernels: dict | None = None) -> dict:
    """{script: {"stdout": text, "error": traceback or None}} for every script under `engine`,
    with `kernels` (one of KERNEL_VARIANTS) set in its environment."""
    selected = selected or names()
    env = {
        **os.environ,
        **(kernels or {}),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run(
        [sys.executable, str(Path(__file__)), "--child", engine, *selected],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the {engine} runner failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


# -- comparing ---------------------------------------------------------------------------------
def _skeleton(text: str) -> str:
    """The text with every number replaced by #, and runs of spaces by one (column widths
    follow the numbers' widths)."""
    return re.sub(r"[ \t]+", " ", _NUMBER.sub("#", text))


def _close(a, b, room: float = 0.0) -> bool:
    """Two printed numbers within REL_TOL of each other, or within `room`."""
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=REL_TOL, abs_tol=ABS_TOL) or abs(x - y) <= room


def compare(want: str, got: str) -> str:
    """ "identical", "close" (every number within REL_TOL, the rest the same) or "different"."""
    if want == got:
        return "identical"
    if _skeleton(want) != _skeleton(got):
        return "different"
    pairs = zip(_NUMBER.findall(want), _NUMBER.findall(got), strict=True)
    return "close" if all(_close(a, b) for a, b in pairs) else "different"


def _numbers(text: str) -> list[float]:
    return [float(n) for n in _NUMBER.findall(text)]


def varies(want: str, variants: list[str], got: str) -> bool:
    """Whether every number of `got` is as near torch's (`want`) as torch's own output under
    some other kernels (`variants`) comes, number by number, the text otherwise the same."""
    shape = _skeleton(got)
    peers = [v for v in variants if _skeleton(v) == shape]
    if _skeleton(want) != shape:  # torch's text itself moves: then be one of its variants
        return any(compare(v, got) != "different" for v in peers)
    wanted, gotten = _numbers(want), _numbers(got)
    rooms = [0.0] * len(wanted)
    for peer in peers:
        rooms = [max(r, abs(p - w)) for r, p, w in zip(rooms, _numbers(peer), wanted, strict=True)]
    return all(_close(w, g, r) for w, g, r in zip(wanted, gotten, rooms, strict=True))


def score(torch_results: dict, autoviz_results: dict, variants: list[dict] = ()) -> dict:
    """{script: "identical" | "close" | "varies" | "different" | "error"}; "error" when autoviz
    raised where torch did not (or the other way round); "varies" when the numbers are not
    within REL_TOL but within what torch's own vary across `variants` (run_all's results of
    torch under KERNEL_VARIANTS)."""
    verdicts = {}
    for name, want in torch_results.items():
        got = autoviz_results[name]
        if (want["error"] is None) != (got["error"] is None):
            verdicts[name] = "error"
            continue
        verdicts[name] = compare(want["stdout"], got["stdout"])
        ran = want["error"] is None
        others = [v[name]["stdout"] for v in variants if (v[name]["error"] is None) == ran]
        if verdicts[name] == "different" and varies(want["stdout"], others, got["stdout"]):
            verdicts[name] = "varies"
    return verdicts


def summary(verdicts: dict) -> str:
    total = len(verdicts)
    identical = sum(v == "identical" for v in verdicts.values())
    close = identical + sum(v == "close" for v in verdicts.values())
    ran = sum(v != "error" for v in verdicts.values())
    text = (
        f"{identical} of {total} identical, {close} of {total} identical within "
        f"{REL_TOL:g} (relative), {ran} of {total} ran without error"
    )
    if any(v == "varies" for v in verdicts.values()):
        spread = close + sum(v == "varies" for v in verdicts.values())
        text += f", {spread} of {total} within 1e-4 or torch's own spread across its CPU kernels"
    return text


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        _child(argv[1], argv[2:])
        return 0
    if argv[:1] == ["--diff"]:
        selected = [n for n in names() if any(n.startswith(a) for a in argv[1:])]
        want, got = run_all("torch", selected), run_all("autoviz", selected)
        for name in selected:
            print(f"== {name}: {score({name: want[name]}, {name: got[name]})[name]}")
            for side in (want[name], got[name]):
                if side["error"]:
                    print(side["error"])
            diff = difflib.unified_diff(
                want[name]["stdout"].splitlines(),
                got[name]["stdout"].splitlines(),
                "torch",
                "autoviz",
                lineterm="",
            )
            print("\n".join(diff))
        return 0
    spread = argv[:1] == ["--spread"]
    selected = [n for n in names() if any(n.startswith(a) for a in argv[1:])] if spread else []
    variants = [run_all("torch", selected, k) for k in KERNEL_VARIANTS] if spread else []
    verdicts = score(run_all("torch", selected), run_all("autoviz", selected), variants)
    for name, verdict in verdicts.items():
        print(f"{name:40} {verdict}{'   (seeded)' if name in SEEDED else ''}")
    print(summary(verdicts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
