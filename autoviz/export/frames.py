"""`tl.save_frames(dir)`: one numbered SVG or PNG per step, all from one layout per graph."""

import re
from pathlib import Path

from ..progress import progress as bar

FORMATS = ("svg", "png")


def save_frames(tl, directory, format: str = "svg", theme: str = "default", **options) -> list:
    """Write `step-000.svg` (or .png), `step-001.svg`, … into `directory`; returns the paths.

    PNG frames are the SVG frames rasterised, so nodes sit at the same places in both. A graph
    too large to draw has a single frame saying so, and condensed iterations (full_iterations)
    one with their chart. The frames are written all or none (an error or a full disk leaves
    the folder as it was); then those an earlier, longer run left in `directory` are removed,
    so a slide deck never mixes runs.
    """
    from .. import files
    from ..render import Diagram, draw_frame, frames_for

    if format not in FORMATS:
        raise ValueError(f"unknown frame format {format!r} (must be one of {list(FORMATS)})")
    if not len(tl):
        raise ValueError("this timeline has no steps: nothing was recorded in the block")
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    width = max(3, len(str(len(tl) - 1)))
    # A graph too large to draw has one frame, its summary, named after its first step; so
    # has a run of condensed iterations, their chart.
    drawing = {k: v for k, v in options.items() if k not in ("ghost", "timeout")}
    frames = frames_for(tl, theme, options.get("timeout"), **drawing)
    entries = bar(frames.entries(), "frames")
    paths = []
    with files.batch() as written:
        for entry in entries:
            k = entry.step
            if entry.graphs is not None:
                source = frames.condensed(entry.graphs)[0]
                frame = Diagram(source, options.get("timeout"), svg=frames.entry_svg(entry))
            else:
                frame = draw_frame(tl, k, theme, **options)
            data = frame.png() if format == "png" else frame.svg().encode("utf-8")
            paths.append(written.add(folder / f"step-{k:0{width}d}.{format}", data))
    _remove_old_frames(folder, format, keep={p.name for p in paths})
    return paths


def _remove_old_frames(folder: Path, format: str, keep: set) -> None:
    """Delete files named as this function names frames (`step-<digits>.<format>`), only those,
    except the ones just written."""
    pattern = re.compile(rf"step-\d{{3,}}\.{format}")
    for old in folder.iterdir():
        if pattern.fullmatch(old.name) and old.name not in keep and old.is_file():
            old.unlink()
