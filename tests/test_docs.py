"""The README is the front door and the docs site holds the rest: sizes, links, the pages CI
builds, and the generated references kept in step with the code."""

import ast
import importlib.util
import re
from pathlib import Path

import pytest

import autoviz

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = [
    "index.md",
    "getting-started.md",
    "teachers.md",
    "drawing.md",
    "recording.md",
    "player.md",
    "widget.md",
    "pytorch.md",
    "cli.md",
    "api.md",
    "errors.md",
    "performance.md",
    "gallery.md",
    "architecture.md",
]
LINK = re.compile(r"\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"")


def tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_a_front_door():
    assert len(README.encode("utf-8")) <= 15_000
    demo = "python3 -m venv .venv && . .venv/bin/activate && pip install . && autoviz demo"
    tests = (
        "<!-- test-command: .ci/run runs the next command exactly as written -->\n```bash\n"
        'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[test]" && '
        "python -m pytest\n```"
    )
    assert README.index(demo) < README.index(tests) < README.index("## Five short examples")
    for picture in ("assets/lesson-example.svg", "assets/lesson-animation.svg"):
        assert f"]({picture})" in README
    for page in PAGES:  # the README links into every page of the docs
        if page != "index.md":
            assert f"](docs/{page})" in README, page


@pytest.mark.parametrize("page", PAGES)
def test_every_page_is_in_the_site_and_has_a_title(page):
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(rf"^\s+- [^:\n]+: {re.escape(page)}$", nav, re.M), page
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    assert text.startswith("# ") and len(text) > 300, page


def relative_links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    found = [a or b for a, b in LINK.findall(text)]
    return [link for link in found if not re.match(r"[a-z]+:|#", link)]


@pytest.mark.parametrize("path", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
def test_relative_links_point_at_files_that_exist(path):
    for link in relative_links(path):
        target = (path.parent / link.split("#", 1)[0]).resolve()
        assert target.exists(), f"{path.name}: {link}"


def test_the_cli_reference_is_the_parsers():
    docs_cli = tool("docs_cli")
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert docs_cli.updated(page) == page, "docs/cli.md is stale: run python tools/docs_cli.py"
    for command in ("demo", "html", "present", "frames", "render", "animate", "lessons"):
        assert f"### autoviz {command}\n" in page
    for flag in ("--depth N", "--collapse-above NODES", "--hide-inner-tensors", "--show-saved"):
        assert f"`{flag}" in page


def test_a_new_option_makes_the_reference_stale(monkeypatch):
    docs_cli = tool("docs_cli")
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    from autoviz import cli

    real = cli._parser

    def parser():
        made = real()
        commands = next(a for a in made._actions if hasattr(a, "choices") and a.choices)
        commands.choices["render"].add_argument("--sparkle", help="a new option")
        return made

    monkeypatch.setattr(cli, "_parser", parser)
    assert "`--sparkle SPARKLE` |  | a new option |" in docs_cli.updated(page)


def test_the_api_page_covers_autoviz_own_api():
    site = tool("docs_site")
    reference = site.api_reference()
    names = site.own_api()
    assert {"draw", "trace", "trace_torch", "Timeline", "Stepper", "compare", "Diagram"} <= set(
        names
    )
    assert "tensor" not in names and "nn" not in names  # PyTorch's API is not ours to list
    for name in names:
        obj = getattr(autoviz, name)
        assert f"::: {obj.__module__}." in reference, name
        assert re.search(rf"^::: [\w.]+\.{name}$", reference, re.M), name


def test_the_module_map_lists_every_module_with_its_docstring():
    table = tool("docs_site").module_map()
    modules = [p for p in (ROOT / "autoviz").rglob("*.py") if "lessons" not in p.parts]
    assert table.count("\n| `autoviz") == len(modules)
    assert (
        "| `autoviz.cli` | The `autoviz` command: classroom demos and exports from the shell. |"
        in (table)
    )


def shows_a_picture(cell: str) -> bool:
    """A cell whose last statement is a call of draw, Stepper or compare (what Jupyter shows)."""
    body = ast.parse(cell).body if cell.strip() and not cell.lstrip().startswith("%") else []
    last = body[-1] if body else None
    call = last.value if isinstance(last, ast.Expr) else None
    name = getattr(getattr(call, "func", None), "attr", None)
    return name in ("draw", "Stepper", "compare")


def test_the_gallery_draws_what_a_lesson_shows(tmp_path, pure_engine):
    site = tool("docs_site")
    notebook = ROOT / "notebooks" / "01_computation_graphs.ipynb"
    pictures = site.lesson_pictures(notebook, tmp_path)
    assert len(pictures) == sum(map(shows_a_picture, site._cells(notebook))) >= 4
    for name, heading in pictures:
        svg = (tmp_path / name).read_text(encoding="utf-8")
        assert "<svg" in svg and 'class="node leaf' in svg and heading


def test_the_link_check_finds_missing_pages_anchors_and_fetches(tmp_path):
    check = tool("check_links")
    (tmp_path / "index.html").write_text(
        '<h1 id="top">autoviz</h1><a href="#top">up</a><a href="teachers.html#quiz">quiz</a>'
        '<a href="gone.html">gone</a><a href="https://example.org/">a link to follow</a>'
        '<script src="https://cdn.example.org/x.js"></script><img src="/pictures/a.svg">',
        encoding="utf-8",
    )
    (tmp_path / "teachers.html").write_text('<h2 id="quizzes">Quizzes</h2>', encoding="utf-8")
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "a.svg").write_text("<svg/>", encoding="utf-8")
    count, found = check.problems(tmp_path)
    assert count == 2
    assert found == [
        "index.html: teachers.html#quiz: no anchor #quiz",
        "index.html: gone.html: no such file",
        "index.html: loads https://cdn.example.org/x.js from the network",
    ]


def test_no_file_keeps_a_merge_conflict():
    """Conflict markers a merge left in a page, a notebook or a picture build and pass the link
    check; they must not ship (docs/cli.md had one)."""
    import subprocess

    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode:
        pytest.skip("not a git checkout")
    marker = re.compile(rf"^({'<' * 7}|{'>' * 7}) |^{'=' * 7}$", re.M)
    kept = []
    for name in listed.stdout.splitlines():
        path = ROOT / name
        if path.suffix in (".png", ".gif", ".pdf", ".ico") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        kept += [name for _ in marker.finditer(text)][:1]
    assert kept == []
