"""autoviz's own errors are importable from `autoviz` and listed on the docs' Errors page."""

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import autoviz
from autoviz import errors

ERRORS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "errors.md"
PUBLIC = [
    name
    for name, value in vars(errors).items()
    if inspect.isclass(value) and issubclass(value, errors.AutovizError)
]


def test_every_error_is_exported_from_autoviz():
    assert {"TimelineFormatError", "GraphTooLarge", "LayoutTimeout", "LayoutEngineNotFound"} <= set(
        PUBLIC
    )
    for name in PUBLIC:
        assert getattr(autoviz, name) is getattr(errors, name), name
        assert name in autoviz.__all__, name


def test_the_errors_page_lists_every_error():
    section = ERRORS_PAGE.read_text("utf-8")
    listed = set(re.findall(r"`(?:autoviz\.)?([A-Z]\w+)`", section))
    assert set(PUBLIC) - {"AutovizError", "LayoutError"} <= listed
    assert {"AutovizError", "LayoutError"} <= listed


def test_catching_them_from_autoviz():
    with pytest.raises(autoviz.TimelineFormatError, match="not valid JSON"):
        autoviz.Timeline.from_json("{")
    with pytest.raises(autoviz.AutovizError):
        autoviz.Timeline.from_json("[]")


def test_importing_autoviz_still_loads_no_renderer():
    code = "import sys, autoviz; print(any(m.startswith('autoviz.render') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
