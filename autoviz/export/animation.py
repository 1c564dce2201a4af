"""`tl.save_animation(path)`: the whole timeline as one looping image, animated SVG or GIF."""

import io
import numbers
from pathlib import Path

from .. import files
from ..progress import progress as bar
from .keyframes import HOLD_STEPS, animated_svg, picture, size_of, still_svg

SUFFIXES = (".svg", ".gif")
PILLOW_HINT = "saving a GIF needs Pillow: pip install pillow"


def save_animation(tl, path, theme="default", seconds_per_step=1.0, **options) -> Path:
    """Write the timeline as an animated `.svg` (CSS keyframes, no script) or a `.gif`."""
    from ..render import get_theme, make_options
    from ..render.frames import Frames

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(
            f"cannot save an animation as {path.name!r}: unknown suffix {suffix or '(none)'!r} "
            f"(must be one of {list(SUFFIXES)})"
        )
    if not len(tl):
        raise ValueError("this timeline has no steps: nothing was recorded in the block")
    seconds_per_step = check_seconds_per_step(seconds_per_step)
    captions = options.pop("captions", True)
    frames = Frames(tl, get_theme(theme), make_options(**options))
    # A graph too large to draw is one step, its summary; condensed iterations one, a chart.
    shown = frames.entries()
    if suffix == ".svg":
        text = animated_svg(frames, shown, _each_frame(frames, shown), seconds_per_step, captions)
        files.write_text(path, text)
    else:
        require_pillow()
        files.write_bytes(path, _gif(tl, frames, shown, seconds_per_step, captions))
    return path


SECONDS_PER_STEP = (0.02, 600.0)  # GIF delays are in hundredths; ten minutes is a still picture


def check_seconds_per_step(value, what: str = "seconds_per_step") -> float:
    """`value` as a float when it is a number of seconds in SECONDS_PER_STEP; else ValueError
    naming the range (CSS needs a finite duration, a GIF a delay of 0.02 s or more)."""
    low, high = SECONDS_PER_STEP
    number = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not number or not low <= value <= high:  # NaN fails both comparisons
        raise ValueError(f"{what} must be a number from {low:g} to {high:g} seconds, got {value!r}")
    return float(value)


def _each_frame(frames, entries: list):
    """Each entry's picture in turn, from one layout per graph (a progress bar when long)."""
    return (frames.entry_svg(e) for e in bar(entries, "animation"))


def require_pillow() -> None:
    """Pillow writes GIFs; without it, say which extra installs it."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        raise ImportError(PILLOW_HINT) from None


def _gif(tl, frames, shown: list, seconds_per_step: float, captions: bool) -> bytes:
    """One GIF frame per step shown (the last held longer), looping, via Pillow."""
    from PIL import Image

    from ..render.raster import svg_to_png

    firsts = {picture(frames, e): e for e in reversed(shown)}
    sizes = [size_of(frames.entry_svg(e)) for e in firsts.values()]
    canvas = (max(w for w, _ in sizes), max(h for _, h in sizes))
    images = []
    for entry, frame in zip(shown, _each_frame(frames, shown), strict=True):
        note = frames.note(entry)
        png = svg_to_png(still_svg(tl, frame, entry.step, frames.theme, canvas, captions, note))
        # GIF stores a palette per frame; the fast octree picks one in a tenth of the time
        # Pillow's default takes, and keeps a frame in a third of the memory of RGB.
        rgb = Image.open(io.BytesIO(png)).convert("RGB")
        images.append(rgb.quantize(256, method=Image.Quantize.FASTOCTREE))
    ms = round(seconds_per_step * 1000)
    durations = [ms] * (len(images) - 1) + [ms * (1 + HOLD_STEPS)]
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return out.getvalue()
