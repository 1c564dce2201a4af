"""`autoviz handout`: a printable worksheet, its questions beside still pictures, answers on a
page of their own, and a PDF where a PDF engine is installed."""

import os
import re
import subprocess
import sys

import pytest
from browser import chromium_path
from test_cli import LESSON, run_cli, write_script
from test_quiz import broadcasting

import autoviz
from autoviz.export import handout
from autoviz.tracing.quiz import questions
from conftest import IN_CI, lesson_timeline


def sections(page: str) -> list:
    return re.findall(r'<section class="av-h-question">(.*?)</section>', page, re.S)


def test_each_question_sits_beside_its_step_and_the_answers_come_last(pure_engine):
    tl = broadcasting()
    page, asked = handout.worksheet(tl, quiz={"count": 5}, title="Broadcasting")
    cards = sections(page)
    assert len(cards) == len(asked) == 5
    for card, (k, q) in zip(cards, asked.items(), strict=True):
        assert f"before step {k + 1} of {len(tl)}" in card
        assert card.count("<svg") == 1  # the still picture of the step before
        assert re.sub(r"<[^>]+>", "", card).count(q.prompt.replace("'", "&#x27;")) == 1
    answers = page.split('<section class="av-h-answers">', 1)[1]
    last = page.rindex('<section class="av-h-question">')
    assert page.index('<section class="av-h-answers">') > last
    for q in asked.values():
        assert q.reveal_text().replace("'", "&#x27;") in answers
    assert "<script" not in page and "default-src 'none'" in page
    assert "break-before: page" in page and "break-inside: avoid" in page  # print CSS


def test_choices_print_as_boxes_and_numbers_get_a_line(pure_engine):
    page, asked = handout.worksheet(broadcasting(), quiz={"kinds": ["which-grad", "zero"]})
    forms = [q.form for q in asked.values()]
    assert forms == ["choices", "choice"]
    which, zero = sections(page)
    assert "☐ w</li>" in which and "○ yes</li>" in zero
    assert "Tick every one that does." in which and "Check" not in which  # no button on paper
    page, _ = handout.worksheet(lesson_timeline(), quiz={"kinds": ["scalar"]})
    assert all('class="av-h-blank"' in card for card in sections(page))


def test_a_program_without_questions_says_so(pure_engine):
    w = autoviz.tensor([1.0, 2.0], requires_grad=True)
    with autoviz.trace() as tl:
        (w * 3).sum()
    page, asked = handout.worksheet(tl)
    assert asked == {} and "This program gives no questions to ask" in page
    assert '<section class="av-h-answers" hidden>' in page


def test_names_are_escaped(pure_engine):
    x = autoviz.tensor(2.0, requires_grad=True, name="<b>x</b>&")
    with autoviz.trace() as tl:
        (x * 3).backward()
    page, _ = handout.worksheet(tl, title="<i>t</i>")
    assert "<b>x" not in page and "&lt;b&gt;x&lt;/b&gt;&amp;" in page
    assert "<i>t</i>" not in page


def test_without_a_pdf_engine_the_html_is_written_and_a_pdf_is_refused(
    tmp_path, monkeypatch, pure_engine
):
    monkeypatch.delenv("AUTOVIZ_CHROMIUM", raising=False)
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # no chromium, weasyprint, wkhtmltopdf
    assert handout.pdf_engine() is None
    tl = lesson_timeline()
    assert tl.save_handout(tmp_path / "w.html") == [tmp_path / "w.html"]
    with pytest.raises(handout.NoPdfEngine, match="no PDF engine was found; install Chromium"):
        tl.save_handout(tmp_path / "w.pdf")
    with pytest.raises(handout.NoPdfEngine):
        tl.save_handout(tmp_path / "x.html", pdf=True)
    assert not (tmp_path / "w.pdf").exists() and not (tmp_path / "x.html").exists()
    with pytest.raises(ValueError, match=r"unknown suffix '.txt' \(must be one of"):
        tl.save_handout(tmp_path / "w.txt")


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


@pytest.fixture
def chromium():
    if chromium_path() is None:
        if IN_CI:
            pytest.fail("no Chromium in CI: the handout's PDF is not checked")
        pytest.skip("no Chromium: apt-get install chromium")


def test_the_cli_writes_the_worksheet_and_its_pdf(tmp_path, pure_engine, chromium, monkeypatch):
    monkeypatch.setenv("AUTOVIZ_CHROMIUM", chromium_path())
    script = write_script(tmp_path, LESSON)
    out = tmp_path / "worksheet.html"
    result = run_cli("handout", str(script), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-3:] == [
        f"wrote {out}",
        f"wrote {tmp_path / 'worksheet.pdf'}",
        "the worksheet asks 6 questions",
    ]
    data = (tmp_path / "worksheet.pdf").read_bytes()
    assert data.startswith(b"%PDF") and pdf_pages(data) >= 2  # the answers on a page of their own
    result = run_cli("handout", str(script), "-o", str(tmp_path / "only.pdf"), "--quiz", "2")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "only.pdf").read_bytes().startswith(b"%PDF")
    assert not (tmp_path / "only.html").exists()
    result = run_cli("handout", str(script), "-o", str(tmp_path / "n.html"), "--no-pdf")
    said = [f"wrote {tmp_path / 'n.html'}", "the worksheet asks 6 questions"]
    assert result.stdout.splitlines()[-2:] == said


def test_the_cli_without_a_pdf_engine_says_what_to_do(tmp_path):
    script = write_script(tmp_path, "print('ran')\n" + LESSON)
    (tmp_path / "bin").mkdir()
    env = {**os.environ, "PATH": str(tmp_path / "bin"), "AUTOVIZ_CHROMIUM": ""}
    command = [sys.executable, "-m", "autoviz", "handout", str(script), "-o"]
    result = subprocess.run(
        [*command, str(tmp_path / "w.pdf")], capture_output=True, text=True, env=env
    )
    assert result.returncode == 1 and "ran" not in result.stdout  # refused before it ran
    assert result.stderr.startswith("autoviz: error: cannot write a PDF: no PDF engine was found")


def test_the_answers_page_breaks_before_it_in_print(page, tmp_path, pure_engine):
    path = tmp_path / "w.html"
    lesson_timeline().save_handout(path, pdf=False)
    page.goto(path.as_uri())
    page.emulate_media(media="print")
    style = "(s) => [getComputedStyle(s).breakBefore, getComputedStyle(s).display]"
    assert page.eval_on_selector(".av-h-answers", style) == ["page", "block"]
    inside = page.eval_on_selector_all(
        ".av-h-question", "(qs) => qs.map((q) => getComputedStyle(q).breakInside)"
    )
    assert inside == ["avoid"] * len(questions(lesson_timeline(), {"count": 8}))
