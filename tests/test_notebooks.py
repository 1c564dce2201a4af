"""The lesson notebooks: each runs top to bottom, its exercises accept the right answer, and the
teacher's guide's idea table points at real sections of them."""

import ast
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = [
    "01_computation_graphs",
    "02_dynamic_graphs",
    "03_forward_and_backward",
    "04_leaf_tensors_and_gradients",
    "05_controlling_gradient_tracking",
    "06_tensors_and_broadcasting",
    "07_training_a_tiny_network",
    "08_pytorch_bridge",
]
KERNEL = "autoviz-tests"


@pytest.fixture(scope="session")
def kernel_specs(tmp_path_factory):
    """A kernelspec for this very interpreter, so notebooks import the autoviz under test."""
    root = tmp_path_factory.mktemp("kernels")
    spec = root / KERNEL
    spec.mkdir()
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec_json = {"argv": argv, "display_name": "autoviz tests", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(spec_json))
    return KernelSpecManager(kernel_dirs=[str(root)])


def execute(nb, kernel_specs, workdir):
    """Run every cell in a fresh kernel started in `workdir`; raises on the first error."""
    km = KernelManager(kernel_name=KERNEL, kernel_spec_manager=kernel_specs)
    client = NotebookClient(nb, km=km, timeout=120, resources={"metadata": {"path": str(workdir)}})
    client.execute()
    return nb


def read(name):
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def tagged(nb, tag):
    return [c for c in nb.cells if tag in c.metadata.get("tags", [])]


def exercise_only(nb):
    """The setup cell and the exercise section: enough to run a check, at a fraction of the time."""
    start = next(i for i, c in enumerate(nb.cells) if c.source.startswith("## Exercise"))
    setup = next(c for c in nb.cells if c.cell_type == "code")
    nb.cells = [setup, *nb.cells[start:]]
    return nb


def text_output(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


@pytest.mark.parametrize("name", LESSONS)
def test_notebook_runs_and_exercises_check(name, kernel_specs, tmp_path):
    """Run with each exercise's worked answer filled in: no cell may fail, each check says Right."""
    if name == "08_pytorch_bridge":
        pytest.importorskip("torch")  # the lesson itself says so and stops without it
    nb = read(name)
    exercises = tagged(nb, "exercise")
    assert exercises, f"{name} has no exercise cell"
    for cell in exercises:
        assert "None" in cell.source, "exercises start unanswered"
        cell.source = cell.metadata["autoviz"]["solution"]
    execute(nb, kernel_specs, tmp_path)
    checks = tagged(nb, "check")
    assert len(checks) == len(exercises)
    for cell in checks:
        assert text_output(cell).startswith("Right"), text_output(cell)


def test_unanswered_exercise_gets_a_friendly_message(kernel_specs, tmp_path):
    """As shipped (answer None) the checking cell explains what to type and does not raise."""
    nb = exercise_only(read("03_forward_and_backward"))
    execute(nb, kernel_specs, tmp_path)
    (check,) = tagged(nb, "check")
    assert text_output(check).startswith("'None' is not a number: type a value")


def test_wrong_answer_is_told_the_answer(kernel_specs, tmp_path):
    nb = exercise_only(read("04_leaf_tensors_and_gradients"))
    (exercise,) = tagged(nb, "exercise")
    exercise.source = "my_answer = 6"
    execute(nb, kernel_specs, tmp_path)
    (check,) = tagged(nb, "check")
    assert text_output(check).startswith("Not quite: the answer is 9")


def test_bridge_lesson_says_plainly_when_torch_is_missing(kernel_specs, tmp_path):
    """Without torch the first code cell stops the lesson with one sentence, not a traceback."""
    nb = read("08_pytorch_bridge")
    first = next(c for c in nb.cells if c.cell_type == "code")
    hide_torch = nbformat.v4.new_code_cell("import sys\nsys.modules['torch'] = None")
    nb.cells = [hide_torch, first]
    with pytest.raises(Exception) as raised:
        execute(nb, kernel_specs, tmp_path)
    assert "NoPyTorch" in str(raised.value)
    (error,) = [o for o in first.outputs if o.output_type == "error"]
    assert error.traceback == [
        "PyTorch is not installed here, so this lesson cannot run. Install its CPU build "
        "(`pip install torch`; on Linux the CPU-only command from PyTorch's install page), "
        "restart the kernel and run again. Lessons 1-7 do not need it."
    ]


def test_notebooks_are_committed_without_outputs():
    """Outputs hold widget ids and timings, which are not reproducible: the docs say so."""
    for name in LESSONS:
        for cell in read(name).cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, name


def stepper_cells(nb) -> list:
    """Code cells whose last statement is a Stepper: its output is the widget."""
    found = []
    for cell in nb.cells:
        if cell.cell_type != "code" or "autoviz.Stepper(" not in cell.source:
            continue
        last = ast.parse(cell.source).body[-1]
        assert isinstance(last, ast.Expr) and ast.unparse(last.value.func) == "autoviz.Stepper", (
            f"a Stepper that is not its cell's output: {cell.source!r}"
        )
        found.append(cell)
    return found


def test_every_notebook_has_a_stepper_and_no_second_copy_of_its_graph():
    """Widgets do not render on GitHub or nbviewer: the stepper's own still picture stands in,
    so a stepper cell draws nothing else."""
    for name in LESSONS:
        cells = stepper_cells(read(name))
        assert cells, f"{name} has no stepper"
        for cell in cells:
            assert ".draw(" not in cell.source, f"{name}: a second picture beside a Stepper"


def test_a_stepper_leaves_one_still_picture_and_lessons_write_no_files(kernel_specs, tmp_path):
    """Run lesson 3 (a stepper, the quiz and the HTML export): each stepper cell's output is
    the widget with one SVG picture for viewers without widgets; nothing lands in the folder."""
    nb = read("03_forward_and_backward")
    for cell in tagged(nb, "exercise"):
        cell.source = cell.metadata["autoviz"]["solution"]
    execute(nb, kernel_specs, tmp_path)
    for cell in stepper_cells(nb):
        shown = [o for o in cell.outputs if o.output_type in ("display_data", "execute_result")]
        assert len(shown) == 1, cell.source
        data = shown[0]["data"]
        assert "application/vnd.jupyter.widget-view+json" in data
        assert data["image/svg+xml"].startswith("<svg")
    assert list(tmp_path.iterdir()) == []  # the player went to a temporary folder
    export = next(c for c in nb.cells if c.cell_type == "code" and "save_html" in c.source)
    assert text_output(export).startswith("open this in a web browser: file://")


# --- the teacher's guide's table: every idea of the lesson text has a notebook section --------

IDEA_ROW = re.compile(
    r"^\| (?P<idea>[^|]+?) \| `(?P<nb>\d\d_\w+)\.ipynb` "
    r"\| (?P<section>[^|]+?) \| `(?P<term>[^`]+)` \|$"
)


def idea_rows():
    guide = (ROOT / "docs" / "teachers.md").read_text(encoding="utf-8")
    block = guide.split("<!-- lesson-ideas -->", 2)[1]
    return [m.groupdict() for m in map(IDEA_ROW.match, block.splitlines()) if m]


def sections(nb):
    """Each `## heading` of a notebook with the source of the cells up to the next heading."""
    found, current = {}, None
    for cell in nb.cells:
        heading = re.match(r"^## (.+)$", cell.source.splitlines()[0]) if cell.source else None
        if cell.cell_type == "markdown" and heading:
            current = heading.group(1).strip()
            found[current] = []
        if current is not None:
            found[current].append(cell)
    return found


def test_idea_table_matches_the_notebooks():
    rows = idea_rows()
    assert len(rows) >= 20, "the idea table in docs/teachers.md lost rows"
    assert {r["nb"] for r in rows} == set(LESSONS), "every notebook teaches at least one idea"
    for row in rows:
        found = sections(read(row["nb"]))
        assert row["section"] in found, f"{row['nb']} has no section {row['section']!r}"
        cells = found[row["section"]]
        assert any(c.cell_type == "code" for c in cells), f"{row['section']!r} runs no code"
        assert row["term"] in "\n".join(c.source for c in cells), (
            f"section {row['section']!r} of {row['nb']} never mentions {row['term']!r}"
        )


# --- predict, then see: a quiz question on a tensor program in every lesson -------------------


def test_every_lesson_asks_a_prediction_on_a_tensor_program():
    """A cell tagged "predict" traces a program with a tensor of more than one element and
    takes one of its quiz questions; the learner's answer is an exercise with its check, and
    a stepper at the question's step reveals it."""
    for name in LESSONS:
        nb = read(name)
        cells = nb.cells
        (ask,) = tagged(nb, "predict")
        at = cells.index(ask)
        assert ".questions(" in ask.source and "tl_q" in ask.source, name
        assert re.search(r"tensor\(\[|randn\(|ones\(", ask.source), f"{name}: not a tensor"
        exercise, check = cells[at + 1], cells[at + 2]
        assert "exercise" in exercise.metadata.get("tags", []), name
        assert "question.check(my_prediction" in check.source, name
        reveal = next(c for c in cells[at + 3 :] if c.cell_type == "code")
        assert "autoviz.Stepper(tl_q, step=step)" in reveal.source, name


def test_a_wrong_prediction_gets_a_hint_then_the_reveal(kernel_specs, tmp_path):
    """Lesson 6's prediction answered with the other dimension: a hint, not the answer."""
    nb = read("06_tensors_and_broadcasting")
    (ask,) = tagged(nb, "predict")
    at = nb.cells.index(ask)
    setup = next(c for c in nb.cells if c.cell_type == "code")
    nb.cells[at + 1].source = "my_prediction = 1"
    nb.cells = [setup, *nb.cells[at : at + 6]]
    execute(nb, kernel_specs, tmp_path)
    said = text_output(nb.cells[3])
    assert said.startswith("Not quite. Summing over dim 1 would give shape (5,)"), said
    assert "Try again." in said and "the answer is" not in said
    assert text_output(nb.cells[5]).startswith("The answer is dim 0.")
