"""`autoviz handout`: a printable worksheet of a program's questions, each beside a still
picture of the graph as it stands when the question is asked, the answers on a page of their
own; and a PDF of it where a PDF engine (Chromium, WeasyPrint, wkhtmltopdf) is installed."""

import html
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .. import files
from ..errors import AutovizError
from ..render.process import run
from .playerdata import scope_styles

SUFFIXES = (".html", ".htm", ".pdf")
DEFAULT_QUIZ = {"count": 8}  # a worksheet's worth; quiz=True for every question
PAPER = (180.0, 80.0)  # mm: a picture's box on an A4 page, two questions a page
_VIEW_BOX = re.compile(r'<svg[^>]*\sviewBox="([^"]*)"')
PDF_TIMEOUT = 120.0  # seconds for a PDF engine to print the page
CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
PDF_HELP = (
    "install Chromium (apt-get install chromium; WeasyPrint or wkhtmltopdf also do), or open "
    "the .html in a browser and print it to PDF"
)


class NoPdfEngine(AutovizError):
    """No program that prints HTML to PDF is installed."""


def save_handout(tl, path, *, quiz=None, pdf=None, theme="default", timeout=None, **options):
    """Write the worksheet of `tl` to `path` (.html or .pdf); returns the paths written.

    `quiz`: which questions, as for save_html (default: 8 of them, every kind there is);
    `pdf` (with an .html path): also write the PDF beside it — None where an engine is
    installed, True always (NoPdfEngine without one), False never.
    """
    path = Path(path)
    engine = engine_for(path, pdf)
    page, _ = worksheet(
        tl, quiz=DEFAULT_QUIZ if quiz is None else quiz, theme=theme, timeout=timeout, **options
    )
    return write_handout(page, path, engine)


def engine_for(path: Path, pdf) -> tuple | None:
    """The PDF engine writing `path` needs (None: no PDF); a bad suffix or a PDF asked for
    without an engine is refused."""
    if path.suffix.lower() not in SUFFIXES:
        raise ValueError(
            f"cannot save a handout as {path.name!r}: unknown suffix "
            f"{path.suffix or '(none)'!r} (must be one of {list(SUFFIXES)})"
        )
    as_pdf = path.suffix.lower() == ".pdf"
    engine = pdf_engine() if as_pdf or pdf is not False else None
    if engine is None and (as_pdf or pdf):
        raise NoPdfEngine(f"cannot write a PDF: no PDF engine was found; {PDF_HELP}")
    return engine


def write_handout(page: str, path: Path, engine: tuple | None) -> list:
    """Write the worksheet's HTML to `path` (and its PDF beside it with `engine`), or only
    the PDF to a .pdf `path`; returns the paths written."""
    if path.suffix.lower() == ".pdf":
        with tempfile.TemporaryDirectory(prefix="autoviz-handout-") as folder:
            source = files.write_text(Path(folder) / "handout.html", page)
            write_pdf(engine, source, path)
        return [path]
    files.write_text(path, page)
    if engine is None:
        return [path]
    return [path, write_pdf(engine, path, path.with_suffix(".pdf"))]


# -- the page -------------------------------------------------------------------------------------


def worksheet(tl, *, quiz=True, theme="default", timeout=None, title=None, **options) -> tuple:
    """(the worksheet as one self-contained HTML page made to be printed, with no script;
    the {step: Question} it asks)."""
    from ..progress import progress
    from ..render import get_theme, make_options
    from ..render.frames import Frames
    from ..tracing.explain import code_lines
    from ..tracing.quiz import questions

    if not len(tl):
        raise ValueError("this timeline has no steps: nothing was recorded in the block")
    look = get_theme(theme)
    frames = Frames(tl, look, make_options(**options), timeout)
    shown = [e.step for e in frames.entries() if frames.note(e) is None]
    asked = questions(tl, quiz, shown)
    directions = [frames]
    if asked and options.get("rankdir") is None:  # each picture the way it is larger
        directions.append(Frames(tl, look, make_options(**options, rankdir="TB"), timeout))
    lines, line_of = code_lines(tl)
    title = title or "Worksheet"
    cards, answers = [], []
    for number, (k, q) in enumerate(progress(asked.items(), "handout", "question"), 1):
        before = max(k - 1, 0)  # the picture the player shows while asking
        focus = _focus(tl, k, q)
        svg = max((_focused(f.svg(before), focus) for f in directions), key=_paper_scale)
        code = lines[line_of[k]].text.strip() if line_of[k] is not None else ""
        cards.append(_card(number, k, len(tl), q, svg[svg.index("<svg") :], code, look.name))
        answers.append(f'<li><span class="av-h-n">{number}.</span> {_e(q.reveal_text())}</li>')
    body = (
        "\n".join(cards)
        if cards
        else (
            '<p class="av-h-none">This program gives no questions to ask: the questions are about '
            "what backward and the optimizer do, and none of its steps shown reveals one.</p>"
        )
    )
    return _PAGE.format(
        csp="default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        title=_e(title),
        css=_CSS,
        count=f"{len(cards)} question{'s' if len(cards) != 1 else ''}",
        cards=body,
        answers="\n".join(answers),
        answers_hidden="" if answers else " hidden",
    ), asked


def _focus(tl, k: int, q) -> set:
    """The nodes a question is about: its step's, their edges' ends, the tensors it names."""
    step = tl.steps[k]
    ids = set(step.nodes)
    for flow in step.flows:
        edge = tl.edges[flow.edge]
        ids |= {edge.source, edge.target}
    named = q.about[1] if len(q.about) > 1 else ()
    ids |= set(named if isinstance(named, tuple) else (named,))
    near = {e.target for e in tl.edges if e.source in ids} | {
        e.source for e in tl.edges if e.target in ids
    }
    return ids | near  # and their neighbours, whole


_NODE = re.compile(r'<g id="(n[0-9]+)" class="node[^"]*">(.*?)</g>', re.S)
_PAIR = re.compile(r"(-?[0-9.]+),(-?[0-9.]+)")
_ELLIPSE = re.compile(r'cx="(-?[0-9.]+)" cy="(-?[0-9.]+)" rx="([0-9.]+)" ry="([0-9.]+)"')
_SHIFT = re.compile(r'<g id="graph0"[^>]*translate\((-?[0-9.]+) (-?[0-9.]+)\)')
_SIZE = re.compile(r'<svg width="[^"]*" height="[^"]*"')
PAD = 24.0  # pt around the nodes a picture is cropped to


def _focused(svg: str, ids: set) -> str:
    """The picture cropped to the nodes `ids` and what is around them, at most at its own
    size on paper (so a big graph's part in question stays legible); whole if it fits."""
    box, shift = _view_box_of(svg), _SHIFT.search(svg)
    if box is None or shift is None:
        return svg
    dx, dy = float(shift.group(1)), float(shift.group(2))
    xs, ys = [], []
    for node_id, body in _NODE.findall(svg):
        if node_id in ids:
            for x, y in _PAIR.findall(body):
                xs.append(float(x) + dx)
                ys.append(float(y) + dy)
            for cx, cy, rx, ry in _ELLIPSE.findall(body):
                xs += [float(cx) - float(rx) + dx, float(cx) + float(rx) + dx]
                ys += [float(cy) - float(ry) + dy, float(cy) + float(ry) + dy]
    full_w, full_h = box[2], box[3]
    page_w, page_h = (v * 72 / 25.4 for v in PAPER)  # the picture's box in pt
    if not xs or (full_w <= page_w and full_h <= page_h):
        return svg
    # As wide as the page at the graph's own size, for what is around; as tall as the nodes.
    w = min(max(max(xs) - min(xs) + 2 * PAD, page_w), full_w)
    h = min(max(ys) - min(ys) + 2 * PAD, full_h)
    x = min(max((min(xs) + max(xs) - w) / 2, box[0]), box[0] + full_w - w)
    y = min(max((min(ys) + max(ys) - h) / 2, box[1]), box[1] + full_h - h)
    view = f'viewBox="{x:.2f} {y:.2f} {w:.2f} {h:.2f}"'
    svg = re.sub(r'viewBox="[^"]*"', view, svg, count=1)
    return _SIZE.sub(f'<svg width="{w:.0f}pt" height="{h:.0f}pt"', svg, count=1)


def _view_box_of(svg: str):
    match = _VIEW_BOX.search(svg)
    return [float(v) for v in match.group(1).split()] if match else None


def _paper_scale(svg: str) -> float:
    """How large a picture prints in its box on the page (1: at its own size)."""
    box = _view_box_of(svg)
    if box is None:
        return 0.0
    page_w, page_h = (v * 72 / 25.4 for v in PAPER)
    return min(page_w / max(box[2], 1.0), page_h / max(box[3], 1.0), 1.0)


def _card(number: int, k: int, total: int, q, svg: str, code: str, theme: str) -> str:
    picture = scope_styles(svg, f".av-h-theme-{theme}")
    code_row = f'<p class="av-h-code">Next line: <code>{_e(code)}</code></p>' if code else ""
    said = q.note().replace(", then Check", "")  # on paper there is no button
    note = f'<p class="av-h-note">{_e(said)}</p>' if said else ""
    return (
        f'<section class="av-h-question">\n'
        f"<h2><span>Question {number}</span> <small>before step {k + 1:,} of {total:,}"
        f" · {_e(q.kind)}</small></h2>\n"
        f'<div class="av-h-picture av-h-theme-{theme}">{picture}</div>\n'
        f"{code_row}\n"
        f'<p class="av-h-prompt">{_e(q.prompt)}</p>\n{note}\n{_answer_space(q)}\n'
        "</section>"
    )


def _answer_space(q) -> str:
    if q.form in ("choice", "choices"):
        box = "○" if q.form == "choice" else "☐"
        items = "".join(f"<li>{box} {_e(o)}</li>" for o in q.options)
        return f'<ul class="av-h-options">{items}</ul>'
    return '<p class="av-h-blank">Answer: <span></span></p>'


def _e(text: str) -> str:
    return html.escape(str(text), quote=True)


_CSS = """
@page { size: A4; margin: 14mm 15mm; }
* { box-sizing: border-box; }
body { font: 11pt/1.4 system-ui, "DejaVu Sans", sans-serif; color: #111; margin: 0 auto;
  max-width: 190mm; padding: 8mm 0; }
h1 { font-size: 18pt; margin: 0 0 2mm; }
.av-h-intro { margin: 0 0 3mm; }
.av-h-name { display: flex; gap: 12mm; margin: 0 0 4mm; }
.av-h-name span { flex: 1; border-bottom: 1px solid #555; padding-bottom: 1mm; }
.av-h-question { break-inside: avoid; page-break-inside: avoid; border-top: 1.5px solid #444;
  padding: 3mm 0 4mm; }
.av-h-question h2 { font-size: 12.5pt; margin: 0 0 2mm; display: flex;
  justify-content: space-between; gap: 4mm; }
.av-h-question h2 small { font-weight: 400; color: #444; font-size: 9.5pt; }
.av-h-picture { text-align: center; margin: 0 0 2mm; }
.av-h-picture svg { width: 100%; height: auto; max-height: 80mm; }
.av-h-code { margin: 0 0 1.5mm; font-size: 10pt; color: #333; }
.av-h-code code { font: 10pt "DejaVu Sans Mono", ui-monospace, monospace; }
.av-h-prompt { font-weight: 700; margin: 0 0 1mm; overflow-wrap: anywhere; }
.av-h-note { margin: 0 0 2mm; font-size: 9.5pt; color: #444; }
.av-h-blank { margin: 3mm 0 0; display: flex; gap: 2mm; }
.av-h-blank span { flex: 1; border-bottom: 1px solid #555; }
.av-h-options { list-style: none; padding: 0; margin: 2mm 0 0; display: flex;
  flex-wrap: wrap; gap: 2mm 8mm; font-family: "DejaVu Sans Mono", ui-monospace, monospace; }
.av-h-answers { break-before: page; page-break-before: always; }
.av-h-answers h2 { font-size: 15pt; margin: 0 0 3mm; }
.av-h-answers ol { list-style: none; padding: 0; margin: 0; }
.av-h-answers li { margin: 0 0 2.5mm; break-inside: avoid; overflow-wrap: anywhere; }
.av-h-n { font-weight: 700; }
[hidden] { display: none; }
@media screen { body { padding: 8mm 4mm; } }
"""

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="generator" content="autoviz">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<main>
<h1>{title}</h1>
<p class="av-h-intro">{count}. Each picture shows the graph just before the step the question is
about. Predict the answer and write it down before you look at the answers, on the last page.</p>
<p class="av-h-name"><span>Name:</span><span>Date:</span></p>
{cards}
<section class="av-h-answers"{answers_hidden}>
<h2>Answers</h2>
<ol>
{answers}
</ol>
</section>
</main>
</body>
</html>
"""


# -- printing to PDF ------------------------------------------------------------------------------


def pdf_engine() -> tuple | None:
    """(name, path) of the first PDF engine found: Chromium or Chrome ($AUTOVIZ_CHROMIUM
    first), WeasyPrint, wkhtmltopdf; None without any."""
    for name, candidates in (
        ("Chromium", [os.environ.get("AUTOVIZ_CHROMIUM", ""), *CHROMIUMS]),
        ("WeasyPrint", ["weasyprint"]),
        ("wkhtmltopdf", ["wkhtmltopdf"]),
    ):
        for candidate in filter(None, candidates):
            found = shutil.which(candidate)
            if found:
                return name, found
    return None


def write_pdf(engine: tuple, source: Path, target: Path) -> Path:
    """Print HTML file `source` to PDF `target` with `engine` (from pdf_engine()), atomically."""
    name, program = engine
    with tempfile.TemporaryDirectory(prefix="autoviz-pdf-") as folder:
        out = Path(folder) / "out.pdf"
        command = _command(name, program, Path(source).resolve(), out, Path(folder))
        try:
            code, _, stderr = run(command, b"", PDF_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise AutovizError(f"{name} did not print the PDF within {PDF_TIMEOUT:.0f} s") from None
        data = out.read_bytes() if out.exists() else b""
        if not data.startswith(b"%PDF"):
            said = stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
            raise AutovizError(f"{name} could not print the PDF (exit code {code}): {said[0]}")
        files.write_bytes(target, data)
    return target


def _command(name: str, program: str, source: Path, out: Path, folder: Path) -> list:
    if name == "Chromium":
        return [
            program,
            "--headless",
            "--no-sandbox",  # root in a container has no user namespaces for it
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={folder / 'profile'}",  # not the user's open browser's
            "--no-pdf-header-footer",
            "--print-to-pdf-no-header",  # the same, for Chrome before 111
            f"--print-to-pdf={out}",
            source.as_uri(),
        ]
    if name == "WeasyPrint":
        return [program, str(source), str(out)]
    return [program, "--quiet", "--enable-local-file-access", str(source), str(out)]
