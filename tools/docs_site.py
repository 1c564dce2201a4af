"""The docs site's generated parts, as mkdocs hooks: the API reference from `autoviz.__all__`,
the architecture page's module map from each module's docstring, the gallery from the lessons.

mkdocs.yml names this file under `hooks:`, so `mkdocs build` writes them afresh every time;
`python tools/docs_site.py gallery` writes the gallery's pictures alone (into docs/gallery/).
"""

import ast
import contextlib
import io
import json
import os
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GALLERY = ROOT / "docs" / "gallery"  # generated: not committed
MARKERS = ("<!-- api-reference -->", "<!-- module-map -->", "<!-- gallery -->")

# The API page's sections: the names of autoviz's own API (not PyTorch's, which the engine
# pages of PyTorch describe) in the order a reader meets them.
API_SECTIONS = {
    "Drawing": ["draw", "Diagram"],
    "Recording": ["trace", "trace_torch", "Timeline"],
    "In Jupyter": ["Stepper", "compare", "Comparison"],
    "PyTorch code on autoviz": ["as_torch"],
}


# --- the API reference ------------------------------------------------------------------------


def own_api() -> list[str]:
    """autoviz's own public names: `__all__` less PyTorch's names and submodules."""
    import autoviz

    torch_like = set(dir(autoviz._engine)) | {"autograd", "nn", "optim", "utils"}
    torch_like |= {"distributions", "save", "load", "set_printoptions"}
    return [name for name in autoviz.__all__ if name not in torch_like]


def api_reference() -> str:
    """mkdocstrings directives for every name of autoviz's own API, errors last."""
    import autoviz

    listed = {name for names in API_SECTIONS.values() for name in names}
    errors = [n for n in own_api() if _is_error(getattr(autoviz, n))]
    rest = [n for n in own_api() if n not in listed and n not in errors]
    sections = {**API_SECTIONS, **({"More": rest} if rest else {}), "Errors": errors}
    lines = []
    for title, names in sections.items():
        lines += [f"## {title}", ""]
        for name in names:
            lines += [f"::: {_path(getattr(autoviz, name), name)}", ""]
    return "\n".join(lines)


def _is_error(obj) -> bool:
    return isinstance(obj, type) and issubclass(obj, BaseException)


def _path(obj, name: str) -> str:
    """Where `obj` is defined, as a dotted path mkdocstrings can load."""
    module = getattr(obj, "__module__", None) or "autoviz"
    return f"{module}.{getattr(obj, '__qualname__', name)}"


# --- the architecture page's module map --------------------------------------------------------


def module_map() -> str:
    """One row per module of the package: its path and the first line of its docstring."""
    rows = ["| module | what it is for |", "|---|---|"]
    package = ROOT / "autoviz"
    for path in sorted(package.rglob("*.py")):
        if "lessons" in path.parts:
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        rows.append(f"| `{name}` | {first} |")
    return "\n".join(rows)


# --- the gallery ---------------------------------------------------------------------------------


def _cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def _heading_before(notebook: Path) -> dict[int, str]:
    """For each code cell (by its index among code cells), the `## heading` it sits under."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    found, heading, k = {}, "", 0
    for cell in cells:
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for line in text.splitlines():
                if line.startswith("# ") or line.startswith("## "):
                    heading = line.lstrip("# ").strip()
        else:
            found[k], k = heading, k + 1
    return found


def _title(notebook: Path) -> str:
    """The notebook's own title: its first `# heading` (`Lesson 1 — Computation graphs`)."""
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        for line in "".join(cell["source"]).splitlines():
            if cell["cell_type"] == "markdown" and line.startswith("# "):
                return line[2:].strip()
    return notebook.stem


def _run_cell(source: str, namespace: dict):
    """Run one cell as Jupyter would; the value of its last expression, if it ends with one."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is not None:
        return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
    return None


def _picture(value) -> str | None:
    """The SVG a viewer without widgets shows for a cell's value, if it is a picture."""
    for attribute in ("frame_svg", "still_svg"):  # a Stepper, a Comparison
        if hasattr(value, attribute) and type(value).__module__.startswith("autoviz"):
            found = getattr(value, attribute)
            return found() if callable(found) else found
    if type(value).__name__ == "Diagram":
        return value.svg()
    return None


def lesson_pictures(notebook: Path, out: Path) -> list[tuple[str, str]]:
    """Run a lesson's code cells in order; save each picture a cell shows as an SVG in `out`.
    Returns (file name, the heading it sits under) for each."""
    headings, pictures = _heading_before(notebook), []
    namespace = {"__name__": "__main__"}
    previous = Path.cwd()
    quiet = (contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings())
    with tempfile.TemporaryDirectory() as scratch, quiet[0], quiet[1]:
        warnings.simplefilter("ignore")  # the lessons' own warnings are theirs to teach
        os.chdir(scratch)  # lessons write their players into temporary folders anyway
        try:
            for k, source in enumerate(_cells(notebook)):
                if source.lstrip().startswith(("%", "!")):
                    continue
                svg = _picture(_run_cell(source, namespace))
                if svg is not None:
                    name = f"{notebook.stem}-{len(pictures) + 1}.svg"
                    (out / name).write_text(svg, encoding="utf-8")
                    pictures.append((name, headings.get(k, "")))
        finally:
            os.chdir(previous)
    return pictures


def write_gallery(out: Path = GALLERY) -> str:
    """Every picture of every lesson notebook, in `out`; returns the gallery's markdown."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.svg"):
        old.unlink()
    lines = []
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        title = _title(notebook)
        lines += [f"## {title}", ""]
        try:
            pictures = lesson_pictures(notebook, out)
        except ImportError as missing:  # lesson 8 without torch: say so rather than fail
            lines += [f"*(not drawn here: {missing})*", ""]
            continue
        for name, heading in pictures:
            caption = heading or title
            lines += [f"![{caption}](gallery/{name})", "", f"*{caption}*", ""]
    return "\n".join(lines)


# --- mkdocs hooks ----------------------------------------------------------------------------

_generated: dict[str, str] = {}


def on_pre_build(config, **kwargs) -> None:
    """Draw the gallery before mkdocs collects the files, so its pictures are among them."""
    sys.path.insert(0, str(ROOT))
    _generated[MARKERS[2]] = write_gallery()


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    """Put the generated parts where a page asks for them."""
    if MARKERS[0] in markdown:
        markdown = markdown.replace(MARKERS[0], api_reference())
    if MARKERS[1] in markdown:
        markdown = markdown.replace(MARKERS[1], module_map())
    if MARKERS[2] in markdown:
        markdown = markdown.replace(MARKERS[2], _generated.get(MARKERS[2]) or write_gallery())
    return markdown


if __name__ == "__main__":
    if sys.argv[1:] == ["gallery"]:
        write_gallery()
        print(f"wrote {len(list(GALLERY.glob('*.svg')))} pictures into {GALLERY}")
    else:
        print(__doc__)
