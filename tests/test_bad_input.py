"""Bad input a user can give gets a clear error: an engine writing something else than it was
asked for, and every number (timeouts, seconds per step, precision) outside its range."""

import math
import re
from pathlib import Path

import pytest

import autoviz
from autoviz import cli
from autoviz.errors import LayoutError
from autoviz.render import raster
from conftest import lesson_example, lesson_timeline


def fake_program(folder: Path, name: str, output: str) -> Path:
    """An executable that prints `output` and exits 0, whatever it is asked."""
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\ncat > /dev/null\nprintf '%s' '{output}'\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def garbage_engine(tmp_path, monkeypatch):
    engine = fake_program(tmp_path / "bin", "my-dot", "Segmentation fault? no: garbage")
    monkeypatch.setenv("AUTOVIZ_DOT", str(engine))
    return engine


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_an_engine_writing_garbage_is_an_error_naming_it_and_what_it_wrote(
    garbage_engine, tmp_path, suffix
):
    diagram = autoviz.draw(lesson_example()["z"])
    target = tmp_path / f"graph{suffix}"
    with pytest.raises(LayoutError) as raised:
        diagram.save(target)
    message = str(raised.value)
    assert "my-dot" in message and str(garbage_engine) in message
    assert "'Segmentation fault? no: garbage'" in message
    assert f"instead of {suffix[1:].upper()}" in message
    assert not target.exists()  # nothing saved


def test_an_engine_writing_an_svg_cut_short_is_an_error(tmp_path, monkeypatch):
    engine = fake_program(tmp_path / "bin", "dot", '<?xml version="1.0"?><svg><g>')
    monkeypatch.setenv("AUTOVIZ_DOT", str(engine))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(LayoutError, match=r"instead of SVG"):
        autoviz.draw(lesson_example()["z"]).svg()


def test_the_cli_says_which_engine_wrote_garbage(garbage_engine, tmp_path, capsys):
    script = tmp_path / "lesson.py"
    script.write_text(
        "import autoviz as torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * 3).backward()\n"
    )
    out = tmp_path / "lesson.html"
    assert cli.main(["html", str(script), "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("autoviz: error: my-dot")
    assert "instead of SVG" in err[0] and "substring not found" not in err[0]
    assert not out.exists()


def test_a_rasteriser_writing_garbage_is_an_error(tmp_path, monkeypatch, pure_engine):
    fake = fake_program(tmp_path / "bin", "rsvg-convert", "not a png")
    monkeypatch.setattr(raster, "find_rsvg", lambda: str(fake))
    with pytest.raises(LayoutError, match=r"rsvg-convert .* wrote 9 bytes starting 'not a png'"):
        lesson_timeline().draw(step=3).png()


BAD_TIMEOUTS = [-1, 0, "5", 10**20, math.inf, math.nan, True, [5]]


@pytest.mark.parametrize("value", BAD_TIMEOUTS)
def test_a_timeout_outside_its_range_is_refused_naming_the_range(value):
    z = lesson_example()["z"]
    message = r"timeout must be a number of seconds greater than 0 and at most 86400 \(a day\)"
    with pytest.raises(ValueError, match=message):
        autoviz.draw(z, timeout=value)
    with pytest.raises(ValueError, match=message):
        lesson_timeline().draw(timeout=value)
    with pytest.raises(ValueError, match=message):
        autoviz.Stepper(lesson_timeline(), timeout=value)


def test_good_timeouts_are_taken(pure_engine):
    z = lesson_example()["z"]
    assert autoviz.draw(z, timeout=5).timeout == 5.0
    assert autoviz.draw(z, timeout=0.5).svg().startswith("<?xml")


@pytest.mark.parametrize("raw", ["inf", "nan", "-1", "0", "five", "1e20"])
def test_a_bad_layout_timeout_variable_is_refused_naming_the_range(raw, monkeypatch):
    monkeypatch.setenv("AUTOVIZ_LAYOUT_TIMEOUT", raw)
    with pytest.raises(ValueError, match=r"\$AUTOVIZ_LAYOUT_TIMEOUT must be a number of seconds"):
        autoviz.draw(lesson_example()["z"]).svg()


def test_the_layout_timeout_variable_applies_to_rasters_too(monkeypatch, pure_engine):
    frame = lesson_timeline().draw(step=3)  # laid out: png() only rasterises it
    monkeypatch.setenv("AUTOVIZ_LAYOUT_TIMEOUT", "nan")
    with pytest.raises(ValueError, match=r"\$AUTOVIZ_LAYOUT_TIMEOUT"):
        frame.png()


@pytest.mark.parametrize("value", [0, -1, 1e-300, 0.01, 601, math.inf, math.nan, "1", True])
def test_seconds_per_step_outside_its_range_is_refused(value, tmp_path):
    with pytest.raises(ValueError, match=r"seconds_per_step must be a number from 0.02 to 600"):
        lesson_timeline().save_animation(tmp_path / "a.svg", seconds_per_step=value)
    assert not (tmp_path / "a.svg").exists()


@pytest.mark.parametrize("value", ["inf", "1e-300", "nan", "0"])
def test_the_cli_refuses_seconds_per_step_before_running_the_script(value, tmp_path, capsys):
    script = tmp_path / "never.py"
    script.write_text(f"open({str(tmp_path / 'ran')!r}, 'w')\n")
    code = cli.main(
        ["animate", str(script), "-o", str(tmp_path / "a.svg"), "--seconds-per-step", value]
    )
    assert code == 1
    assert "--seconds-per-step must be a number from 0.02 to 600 seconds" in capsys.readouterr().err
    assert not (tmp_path / "ran").exists()


def test_the_limits_write_valid_css_durations(tmp_path, pure_engine):
    tl = lesson_timeline()
    for seconds in (0.02, 600):
        svg = tl.save_animation(tmp_path / "a.svg", seconds_per_step=seconds).read_text("utf-8")
        duration = re.search(r"\.a\{animation:([^s]*)s step-end infinite\}", svg).group(1)
        assert float(duration) == pytest.approx((len(tl) + 2) * seconds)  # 2: the last is held
        assert re.fullmatch(r"\d+(\.\d+)?", duration)


@pytest.mark.parametrize("value", [0, 18, True, 4.0, "4"])
def test_precision_outside_1_to_17_is_refused(value):
    with pytest.raises(ValueError, match=r"precision must be an integer from 1 to 17"):
        autoviz.draw(lesson_example()["z"], precision=value)
