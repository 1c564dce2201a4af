"""Progress bars only when work is long: every export and `autoviz lessons` has one, and it
shows only once the work has taken half a second (so a quick export prints nothing)."""

import pytest
import tqdm.std

from autoviz import cli, progress
from conftest import lesson_timeline

LESSON = """\
import autoviz as torch
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x
z = y + b
z.backward()
"""


class Clock:
    """tqdm's clock, turned by the test: `advance(s)` is the work of an item."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(tqdm.std, "time", fake)
    return fake


@pytest.mark.parametrize(("items", "shown"), [(2, False), (4, True), (30, True)])
def test_a_bar_shows_only_after_half_a_second_of_work(clock, capsys, items, shown):
    for _ in progress.progress(range(items), "player"):
        clock.advance(0.2)  # each item takes 0.2 s: 2 items end before the bar is due
    err = capsys.readouterr().err
    assert ("player" in err) is shown
    if shown:
        assert f"{items}/{items}" in err  # drawn to its end once shown


def test_the_delay_is_half_a_second():
    bar = progress.progress([1], "frames")
    assert bar.delay == progress.DELAY == 0.5 and bar.desc == "frames" and bar.unit == "step"
    bar.close()


@pytest.fixture
def no_delay(monkeypatch):
    """Every bar shown at once, to see which work has one."""
    monkeypatch.setattr(progress, "DELAY", 0)


@pytest.mark.parametrize(
    ("export", "label"),
    [
        (lambda tl, d: tl.save_html(d / "p.html"), "player"),
        (lambda tl, d: tl.save_frames(d / "frames"), "frames"),
        (lambda tl, d: tl.save_frames(d / "png", format="png"), "frames"),
        (lambda tl, d: tl.save_animation(d / "a.svg"), "animation"),
    ],
    ids=["save_html", "save_frames", "png frames", "save_animation"],
)
def test_every_export_has_a_bar(no_delay, tmp_path, capsys, pure_engine, export, label):
    export(lesson_timeline(), tmp_path)
    err = capsys.readouterr().err
    assert f"{label}: 100%" in err and "12/12" in err


def test_the_handout_has_a_bar(no_delay, tmp_path, capsys, pure_engine):
    from autoviz.export import handout

    handout.worksheet(lesson_timeline(), quiz=True)
    assert "handout: 100%" in capsys.readouterr().err


def test_the_gif_export_has_a_bar(no_delay, tmp_path, capsys, pure_engine):
    pytest.importorskip("PIL", reason="pip install pillow")
    lesson_timeline().save_animation(tmp_path / "a.gif")
    assert "animation: 100%" in capsys.readouterr().err


def test_autoviz_lessons_has_a_bar(no_delay, tmp_path, capsys):
    assert cli.main(["lessons", str(tmp_path / "l")]) == 0
    err = capsys.readouterr().err
    assert "lessons: 100%" in err and "8/8" in err


def test_widgets_print_no_bar_under_themselves(no_delay, capsys, pure_engine):
    import autoviz

    autoviz.Stepper(lesson_timeline())
    autoviz.compare(lesson_timeline(), lesson_timeline())
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command", ["html", "frames", "animate", "lessons"])
def test_quick_work_prints_no_bar(tmp_path, command, pure_engine, clock, capsys):
    """The command line's exports print nothing on stderr while the work is quick: tqdm's
    clock stands still here (on a loaded machine the real one may pass half a second)."""
    script = tmp_path / "lesson.py"
    script.write_text(LESSON, encoding="utf-8")
    out = {"html": "p.html", "frames": "frames", "animate": "a.svg"}.get(command)
    args = [command, str(tmp_path / "l")] if command == "lessons" else [command, str(script)]
    args += ["-o", str(tmp_path / out)] if out else []
    assert cli.main(args) == 0
    assert capsys.readouterr().err == ""
