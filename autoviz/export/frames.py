"""`tl.save_frames(dir)`: one numbered SVG per step, all from one layout per graph."""

from pathlib import Path

FORMATS = ("svg",)
PROGRESS_FROM = 36  # steps; below this a progress bar is only noise


def save_frames(tl, directory, format: str = "svg", theme: str = "default", **options) -> list:
    """Write `step-000.svg`, `step-001.svg`, … into `directory`; returns the paths."""
    from ..render import draw_frame

    if format not in FORMATS:
        raise ValueError(
            f"unknown frame format {format!r} (must be one of {list(FORMATS)}); frames are the "
            "layout restyled per step, which only SVG can carry"
        )
    if not len(tl):
        raise ValueError("this timeline has no steps: nothing was recorded in the block")
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    width = max(3, len(str(len(tl) - 1)))
    steps = range(len(tl))
    if len(tl) > PROGRESS_FROM:
        from tqdm import tqdm

        steps = tqdm(steps, desc="frames", unit="step")
    paths = []
    for k in steps:
        path = folder / f"step-{k:0{width}d}.{format}"
        path.write_text(draw_frame(tl, k, theme, **options).svg(), encoding="utf-8")
        paths.append(path)
    return paths
