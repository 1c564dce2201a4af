"""`tl.save_animation(path)`: the whole timeline as one looping image, animated SVG or GIF."""

import io
from pathlib import Path

from .frames import PROGRESS_FROM
from .keyframes import HOLD_STEPS, animated_svg, graphs_of, size_of, still_svg

SUFFIXES = (".svg", ".gif")
PILLOW_HINT = "saving a GIF needs Pillow: pip install 'autoviz[gif]' (or pip install pillow)"


def save_animation(tl, path, theme="default", seconds_per_step=1.0, **options) -> Path:
    """Write the timeline as an animated `.svg` (CSS keyframes, no script) or a `.gif`."""
    from ..render import get_theme

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(
            f"cannot save an animation as {path.name!r}: unknown suffix {suffix or '(none)'!r} "
            f"(must be one of {list(SUFFIXES)})"
        )
    if not len(tl):
        raise ValueError("this timeline has no steps: nothing was recorded in the block")
    if isinstance(seconds_per_step, bool) or not (
        isinstance(seconds_per_step, (int, float)) and seconds_per_step > 0
    ):
        raise ValueError(f"seconds_per_step must be a positive number, got {seconds_per_step!r}")
    captions = options.pop("captions", True)
    colours = get_theme(theme)
    if suffix == ".gif":
        _require_pillow()
    frames = _frame_svgs(tl, theme, options)
    if suffix == ".svg":
        text = animated_svg(tl, frames, colours, seconds_per_step, captions)
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(_gif(tl, frames, colours, seconds_per_step, captions))
    return path


def _frame_svgs(tl, theme: str, options: dict) -> list[str]:
    """The SVG of every step's frame, from one layout per graph."""
    from ..render import draw_frame

    steps = range(len(tl))
    if len(tl) > PROGRESS_FROM:
        from tqdm import tqdm

        steps = tqdm(steps, desc="animation", unit="step")
    return [draw_frame(tl, k, theme, **options).svg() for k in steps]


def _require_pillow() -> None:
    try:
        import PIL  # noqa: F401
    except ImportError:
        raise ImportError(PILLOW_HINT) from None


def _gif(tl, frames: list[str], theme, seconds_per_step: float, captions: bool) -> bytes:
    """One GIF frame per step (the last held longer), looping, via Pillow."""
    from PIL import Image

    from ..render.raster import svg_to_png

    layouts = [frames[steps[0]] for steps in graphs_of(tl).values()]
    size = (max(size_of(s)[0] for s in layouts), max(size_of(s)[1] for s in layouts))
    images = []
    for k in range(len(frames)):
        png = svg_to_png(still_svg(tl, frames, k, theme, size, captions))
        images.append(Image.open(io.BytesIO(png)).convert("RGB"))
    ms = round(seconds_per_step * 1000)
    durations = [ms] * (len(images) - 1) + [ms * (1 + HOLD_STEPS)]
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return out.getvalue()
