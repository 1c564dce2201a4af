"""The number formatter every view uses (tracing.text.number) against torch's printing, over
random floats: subnormals, ±0, NaN, infinities, huge and tiny magnitudes. A shown number is the
real one rounded to the digits it shows (never `1364.0` for 1363.8601), agrees with what
`print(tensor)` shows, and the player's copy of the rule (heatmap.js) writes the same text."""

import math
import struct

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from truth import honest

from autoviz.tracing.text import number

FLOATS = st.floats(width=32, allow_nan=True, allow_infinity=True, allow_subnormal=True)
SPECIAL = [0.0, -0.0, math.nan, math.inf, -math.inf, 1363.8601, 1e-45, 3.4028234663852886e38]


def torch_text(x: float) -> str:
    """What torch prints inside `tensor(...)` for a float32 of value x."""
    torch = pytest.importorskip("torch")
    return str(torch.tensor(x, dtype=torch.float32))[len("tensor(") : -1]


@settings(max_examples=400, deadline=None)
@given(FLOATS)
@example(1363.8601)
@example(-0.0)
@example(1e-45)
def test_a_number_is_an_honest_rounding_that_agrees_with_torchs_print(x):
    x = struct.unpack("f", struct.pack("f", x))[0]  # the float32 the engine holds
    text, printed = number(x), torch_text(x)
    assert honest(text, x), f"{text!r} claims digits {x!r} does not have"
    if math.isnan(x) or math.isinf(x):
        assert text == printed
        return
    assert text.startswith("-") == printed.startswith("-")  # -0.0 too
    torch_digits = printed.rstrip(".") if "e" not in printed else printed
    assert honest(torch_digits, x)  # torch's own text is honest: the two round one number
    if text.endswith(".0") and "e" not in text:
        assert float(text) == x  # "7.0" is exactly 7, as torch's "7." is
    assert "1364.0" not in text or x == 1364.0


def test_the_issue_case_and_the_specials():
    assert number(1363.8601) == "1364" and number(1364.0) == "1364.0"
    assert [number(v) for v in SPECIAL[:5]] == ["0.0", "-0.0", "nan", "inf", "-inf"]
    assert number(2.5) == "2.5" and number(0.1) == "0.1" and number(3) == "3"
    assert number(123456.7) == "1.235e+05" and number(1.5e-7) == "1.5e-07"


def test_the_players_formatter_writes_what_python_writes(page):
    """heatmap.js's fmt is the player's copy of the rule (it formats what nudges compute):
    over random float32s (a float32 never sits exactly on a 4-digit tie) it writes Python's
    text."""
    import random
    from importlib import resources

    source = resources.files("autoviz.export").joinpath("player", "js", "heatmap.js").read_text()
    page.set_content("<html><body></body></html>")
    page.add_script_tag(content=source)
    rng = random.Random(25)
    values = [struct.unpack("f", struct.pack("I", rng.getrandbits(32)))[0] for _ in range(2000)]
    values = [v for v in values if not math.isnan(v)] + [1363.8601, 7.0, -0.0, 0.1, 1e-40]
    texts = page.evaluate("(vs) => vs.map((v) => fmt(v))", values)
    differ = [(v, text) for v, text in zip(values, texts, strict=True) if text != number(v)]
    assert all(honest(text, v) for v, text in zip(values, texts, strict=True))
    assert differ == []
