"""`import autoviz` loads what a lesson's first line needs and leaves the rest for first use."""

import subprocess
import sys

# numpy.random (a quarter of autoviz's own import time) waits for the first random draw;
# pathlib for a path.
LAZY = ("numpy.random", "pathlib", "torch", "ipywidgets", "graphviz")


def test_import_autoviz_leaves_the_costly_modules_for_later():
    code = (
        "import sys, autoviz\n"
        f"print([m for m in {LAZY!r} if m in sys.modules])\n"
        "autoviz.manual_seed(0)\n"
        "x = autoviz.randn(2).tolist()\n"
        "print('numpy.random' in sys.modules, x)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded, drawn = out.stdout.splitlines()
    assert loaded == "[]"
    # the first draw loads it, and draws torch's numbers for seed 0
    assert drawn == "True [1.5409960746765137, -0.293428897857666]"
