"""SVG to PNG for stepping frames: the frame's own SVG rasterised, so nodes keep their places."""

import shutil
import subprocess

from ..errors import LayoutError, LayoutTimeout
from . import process
from .layout import describe, layout_timeout

DPI = 144  # the layout engine's PNG resolution too: twice Graphviz's 72 points per inch


def svg_to_png(svg: str, timeout: float | None = None) -> bytes:
    """PNG bytes of `svg`: with `rsvg-convert` when on PATH, else with resvg (pip: resvg-py)."""
    limit = layout_timeout(timeout)  # a bad $AUTOVIZ_LAYOUT_TIMEOUT is refused either way
    rsvg = find_rsvg()
    if rsvg is not None:
        return _rsvg_convert(rsvg, svg, limit)
    try:
        import resvg_py
    except ImportError:
        raise LayoutError(
            "cannot rasterise a frame to PNG: neither `rsvg-convert` (librsvg) nor the resvg-py "
            "package is installed. `pip install resvg-py`, or save frames as .svg."
        ) from None
    return _checked("resvg", bytes(resvg_py.svg_to_bytes(svg_string=svg, dpi=float(DPI))))


def find_rsvg() -> str | None:
    """librsvg's `rsvg-convert` on PATH, if there."""
    return shutil.which("rsvg-convert")


def _rsvg_convert(executable: str, svg: str, timeout: float) -> bytes:
    command = [executable, "--format=png", f"--dpi-x={DPI}", f"--dpi-y={DPI}"]
    try:
        code, stdout, stderr = process.run(command, svg.encode("utf-8"), timeout)
    except subprocess.TimeoutExpired:
        raise LayoutTimeout(f"rsvg-convert did not finish within {timeout:g} s") from None
    if code != 0 or not stdout:
        message = stderr.decode("utf-8", "replace").strip()
        raise LayoutError(f"rsvg-convert failed (exit code {code}): {message[-800:]}")
    return _checked(f"rsvg-convert ({executable})", stdout)


def _checked(rasteriser: str, data: bytes) -> bytes:
    """`data` if it is a PNG; else LayoutError saying what `rasteriser` wrote instead."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise LayoutError(f"{rasteriser} wrote {describe(data)} instead of PNG")
    return data
