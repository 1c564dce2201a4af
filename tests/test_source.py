"""A timeline carries the code it shows, recorded when tracing (issue 26 item 1): a loaded one
never opens a path named inside it, and its code panel is the traced block as written (every
line, indented, idle ones marked), cells labelled as Jupyter labels them."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

import autoviz
from autoviz.tracing import source
from autoviz.tracing.explain import code_lines
from conftest import as_records

SCRIPT = """\
import autoviz as torch

W = torch.randn(3, 2, requires_grad=True)
with torch.trace() as tl:
    for i in range(2):
        X = torch.randn(4, 3)  # records nothing
        loss = (X @ W).tanh().sum()
        loss.backward()
        with torch.no_grad():
            W -= 0.1 * W.grad
        W.grad = None
"""


def traced(tmp_path):
    path = tmp_path / "lesson.py"
    path.write_text(SCRIPT)
    ns = {"__name__": "__lesson__"}
    exec(compile(SCRIPT, str(path), "exec"), ns)
    return ns["tl"], path


def test_the_code_panel_is_the_block_as_written(tmp_path):
    tl, path = traced(tmp_path)
    rows, index = code_lines(tl)
    assert [(r.line, r.text, r.role) for r in rows] == [
        (4, "with torch.trace() as tl:", "context"),
        (5, "    for i in range(2):", "context"),
        (6, "        X = torch.randn(4, 3)  # records nothing", "idle"),
        (7, "        loss = (X @ W).tanh().sum()", "code"),
        (8, "        loss.backward()", "code"),
        (9, "        with torch.no_grad():", "context"),
        (10, "            W -= 0.1 * W.grad", "code"),
        (11, "        W.grad = None", "code"),
    ]
    assert all(rows[i].role == "code" for i in index if i is not None)
    assert tl.code[0].file == str(path) and tl.code[0].block == [4, 11]


def test_a_loaded_timeline_shows_its_own_code_and_opens_no_path(tmp_path, monkeypatch):
    """Every path in the file points at a FIFO: loading, the code panel and every export
    finish, and nothing opens it (open and linecache are watched; the export runs in a process
    of its own, where a FIFO opened would block it past its time limit)."""
    tl, _ = traced(tmp_path)
    before = [(r.line, r.text, r.role) for r in code_lines(tl)[0]]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    doc = json.loads(tl.to_json())
    for line in doc["sources"]:
        line["file"] = str(fifo)
    for entry in doc["code"]:
        entry["file"] = str(fifo)
    text = json.dumps(doc)
    opened = []
    real_open = open

    def watch(target, *args, **kwargs):
        if str(target) in (str(fifo), "/dev/zero"):
            opened.append(str(target))
            raise AssertionError(f"opened {target}")
        return real_open(target, *args, **kwargs)

    import builtins
    import linecache

    monkeypatch.setattr(builtins, "open", watch)
    monkeypatch.setattr(linecache, "getline", lambda *a, **k: opened.append(a) or "")
    monkeypatch.setattr(linecache, "getlines", lambda *a, **k: opened.append(a) or [])
    loaded = autoviz.Timeline.from_json(text)
    after = [(r.line, r.text, r.role) for r in code_lines(loaded)[0]]
    monkeypatch.undo()
    assert after == before and opened == []
    page = tmp_path / "page.html"
    script = textwrap.dedent(
        f"""
        import autoviz, json, sys
        tl = autoviz.Timeline.from_json(open({str(tmp_path / "loaded.json")!r}).read())
        tl.save_html({str(page)!r})
        print("ok")
        """
    )
    (tmp_path / "loaded.json").write_text(text.replace(str(fifo), "/dev/zero", 1))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=240
    )
    assert done.stdout.strip() == "ok", done.stderr
    assert "records nothing" in page.read_text()


def test_a_version_1_file_shows_each_steps_own_line(tmp_path):
    """A file written before timelines carried their code: each step's line, as it has it."""
    tl, _ = traced(tmp_path)
    doc = as_records(tl.to_json())
    doc["version"] = 1
    del doc["code"]
    loaded = autoviz.Timeline.from_json(json.dumps(doc))
    rows, index = code_lines(loaded)
    assert loaded.code == [] and "loss.backward()" in [r.text for r in rows]
    assert all(i is not None for s, i in zip(loaded.steps, index, strict=True) if s.source)


def test_cells_are_labelled_as_jupyter_labels_them(monkeypatch):
    """A cell's file is labelled `In [n]` from IPython's own record of its execution count."""
    import types

    shell = types.SimpleNamespace(
        compile=types.SimpleNamespace(_filename_map={"/tmp/ipykernel_1/42.py": 8})
    )
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    labels = source._labels(["/tmp/ipykernel_1/42.py", "/tmp/ipykernel_1/43.py", "/x/lesson.py"])
    assert labels == {
        "/tmp/ipykernel_1/42.py": "In [8]",
        "/tmp/ipykernel_1/43.py": "cell 2",
        "/x/lesson.py": "lesson.py",
    }


@pytest.mark.parametrize("width", [0, 8])
def test_a_block_is_its_with_line_and_every_line_indented_deeper(tmp_path, width):
    pad = " " * width
    text = f"{pad}with a:\n{pad}    x = 1\n\n{pad}    # note\n{pad}    y = 2\n{pad}z = 3\n"
    path = tmp_path / "b.py"
    path.write_text(text)
    frame = types_frame(str(path), 1)
    assert source.block_of(frame) == source.Block(str(path), 1, 5)


def types_frame(file: str, line: int):
    import types

    return types.SimpleNamespace(
        f_code=types.SimpleNamespace(co_filename=file), f_lineno=line, f_globals={}
    )
