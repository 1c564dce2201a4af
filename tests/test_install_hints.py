"""Every install hint the project prints or documents works on a fresh machine: it installs this
project from its clone (`pip install -e ".[torch]"`), or a third-party package the project
itself depends on (`pip install torch`). Never `autoviz` from the package index, which is
another project."""

import ast
import json
import re
import shlex
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "autoviz-autograd"  # as installed: pyproject.toml's name, extras, requirements
# Where a pip command ends: a code span, a comment, the next command, a closing bracket.
_END = re.compile(r"`|#|&&|;|\)|\n|$")
_OPTIONS_WITH_VALUE = {"-r", "-c", "--index-url", "-i", "--extra-index-url", "-f", "--find-links"}


def _name(requirement: str) -> str:
    """A requirement's project name, normalised as the package index does."""
    name = re.split(r"[\[<>=!~;@ ]", requirement, maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> set:
    """The third-party packages the project depends on (always or through an extra)."""
    return {_name(r) for r in metadata.requires(DISTRIBUTION)}


def extras() -> set:
    return set(metadata.metadata(DISTRIBUTION).get_all("Provides-Extra"))


def texts() -> list[tuple[str, str]]:
    """(where, text) for every document and every string in the project's code."""
    found = []
    for path in [ROOT / "README.md", *ROOT.glob("notebooks/*.md"), *ROOT.glob("docs/*.md")]:
        found.append((path.name, path.read_text("utf-8").replace("\n", " ")))  # wrapped lines
    for path in sorted(ROOT.glob("notebooks/*.ipynb")):
        for cell in json.loads(path.read_text("utf-8"))["cells"]:
            source = "".join(cell["source"])
            found.append((path.name, source.replace("\n", " ") if cell["cell_type"] else source))
            found += (
                [(path.name, s) for s in _strings(source)] if cell["cell_type"] == "code" else []
            )
    code = [*ROOT.glob("autoviz/**/*.py"), *ROOT.glob("tools/*.py"), *ROOT.glob("assets/*.py")]
    code += [*ROOT.glob("benchmarks/*.py")]
    for path in sorted(code):
        found += [(str(path.relative_to(ROOT)), s) for s in _strings(path.read_text("utf-8"))]
    found.append((".ci/run", (ROOT / ".ci" / "run").read_text("utf-8")))
    return found


def _strings(source: str) -> list[str]:
    """The string constants of Python source (implicitly joined ones as one), f-strings'
    literal parts included."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a notebook cell with IPython magics
        return [source]
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def hints() -> list[tuple[str, str, list[str]]]:
    """(where, the command, its requirements) for each `pip install` found."""
    out = []
    for where, text in texts():
        for match in re.finditer(r"pip install\b", text):
            rest = text[match.end() :]
            command = rest[: _END.search(rest).start()]
            try:
                words = shlex.split(command)
            except ValueError:
                words = command.split()
            requirements, skip = [], False
            for word in words:
                if skip:
                    skip = False
                elif word in _OPTIONS_WITH_VALUE:
                    skip = True
                elif not word.startswith("-"):
                    requirements.append(word.strip("'\""))
            out.append((where, f"pip install{command}".strip(), requirements))
    return out


def test_the_hints_are_found():
    found = hints()
    wheres = {where for where, _, _ in found}
    assert {"README.md", "08_pytorch_bridge.ipynb", ".ci/run", "getting-started.md"} <= wheres
    assert {"autoviz/bridge/require.py", "autoviz/cli.py", "autoviz/export/animation.py"} <= wheres
    assert len(found) >= 12


@pytest.mark.parametrize(("where", "command", "requirements"), hints())
def test_each_hint_installs_this_project_or_a_package_it_depends_on(where, command, requirements):
    assert requirements, f"{where}: {command!r} names nothing to install"
    known = extras()
    for requirement in requirements:
        if requirement.startswith("."):  # this project, from its clone
            path, _, extra = requirement.partition("[")
            assert path == ".", f"{where}: {command!r}"
            for name in filter(None, extra.rstrip("]").split(",")):
                assert name in known, f"{where}: {command!r}: no extra {name!r} in pyproject"
        else:
            name = _name(requirement)
            assert name not in ("autoviz", DISTRIBUTION), (
                f"{where}: {command!r} installs {name!r} from the package index, which is not "
                "this project: install it from the clone (pip install -e .) instead"
            )
            assert name in declared(), f"{where}: {command!r}: {name!r} is not a dependency"


def test_the_distribution_name_is_not_autoviz():
    """`autoviz` on the package index is an unrelated project; the import name stays."""
    assert 'name = "autoviz-autograd"' in (ROOT / "pyproject.toml").read_text("utf-8")
    assert metadata.distribution(DISTRIBUTION).read_text("top_level.txt") in (None, "autoviz\n")
    scripts = metadata.distribution(DISTRIBUTION).entry_points.select(group="console_scripts")
    assert [(e.name, e.value) for e in scripts] == [("autoviz", "autoviz.cli:console")]


def test_the_printed_hints_are_real_commands(tmp_path):
    """What the running program says: TorchNotInstalled, the lessons' extras, Pillow's."""
    hide = "import sys; sys.modules['torch'] = None; sys.modules['PIL'] = None\n"
    code = hide + (
        "import autoviz\n"
        "from autoviz.export.animation import require_pillow\n"
        "for call in (autoviz.trace_torch, require_pillow):\n"
        "    try:\n        call()\n    except ImportError as e:\n        print(e)\n"
        "from autoviz import cli\n"
        f"cli.main(['lessons', {str(tmp_path / 'l')!r}])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    said = re.findall(r"pip install [^);\n]*", out.stdout)
    assert said == [
        "pip install torch",
        "pip install pillow",
        "pip install jupyterlab matplotlib",
    ], out.stdout
    assert "needs only its CPU build" in out.stdout.splitlines()[0]


def _installs_torch(requirement: str) -> bool:
    """`torch`, or this project with an extra that brings torch (`.[torch]`, `.[bench]`)."""
    if requirement.startswith("."):
        wanted = requirement.partition("[")[2].rstrip("]").split(",")
        return any(
            _name(r) == "torch"
            for r in metadata.requires(DISTRIBUTION)
            for extra in wanted
            if f'extra == "{extra}"' in r
        )
    return _name(requirement) == "torch"


def test_every_torch_hint_asks_for_its_cpu_build():
    """pip's torch on Linux is a CUDA build of several GB; lessons and the bridge need only the
    CPU build, so every hint that installs torch says to take that, naming no download host."""
    checked = 0
    for where, text in texts():
        for match in re.finditer(r"pip install\b", text):
            rest = text[match.end() :]
            words = rest[: _END.search(rest).start()].split()
            if any(_installs_torch(w.strip("'\"")) for w in words if not w.startswith("-")):
                around = text[max(0, match.start() - 300) : match.end() + 300]
                assert "CPU" in around, f"{where}: {text[match.start() : match.end() + 40]!r}"
                checked += 1
        assert "download.pytorch.org" not in text and "--index-url" not in text, where
    assert checked >= 6
