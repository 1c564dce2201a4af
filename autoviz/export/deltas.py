"""Per-step changes over each graph's single layout: the data the HTML player replays."""

from dataclasses import dataclass, field
from operator import itemgetter

from ..render.frames import Frames, FrameSequence

PROGRESS_FROM = 36  # steps; below this a progress bar is only noise


@dataclass
class Layout:
    """One graph's SVG, filled with the state of its first step, and its slot keys in order."""

    graph_no: int
    svg: str
    slots: list = field(default_factory=list)


@dataclass
class Deltas:
    """Layouts in order of first use; per step its layout and the (slot, value) pairs it changes.

    Values are as they stand in the SVG (label text HTML-escaped). Replaying the changes of
    steps 0..k over the layouts' first states gives exactly the frame of step k.
    """

    layouts: list[Layout]
    layout_of_step: list[int]
    changes: list[list[tuple[int, str]]]


def step_deltas(frames: Frames, ghost: bool = False) -> Deltas:
    """The layouts of `frames` and what each step changes in its layout's previous state.

    The renderer's FrameSequence derives each graph's frames in order, rewriting only what a step
    touched; the changes are the slots whose values differ from the graph's previous frame.
    """
    tl = frames.tl
    index, sequences, read, last = {}, {}, {}, {}
    layouts, layout_of_step, changes = [], [], []
    for k in _progress(len(tl)):
        graph_no = frames.graph_of_step(k)
        if graph_no not in index:
            _, template, plan = frames.template(graph_no)
            sequences[graph_no] = FrameSequence(tl, graph_no, template, plan, frames.options, ghost)
            slots = [part for part in template.parts if type(part) is not str]
            read[graph_no] = _reader([template.index[key] for key in slots])
            index[graph_no] = len(layouts)
            layouts.append(Layout(graph_no, "".join(sequences[graph_no].pieces(k)), slots))
        values = read[graph_no](sequences[graph_no].pieces(k))
        before = last.get(graph_no, values)
        pairs = enumerate(zip(values, before, strict=True))
        changes.append([(i, v) for i, (v, old) in pairs if v is not old and v != old])
        last[graph_no] = values
        layout_of_step.append(index[graph_no])
    return Deltas(layouts, layout_of_step, changes)


def _reader(positions: list):
    """A function taking the slot values out of a frame's pieces, as a tuple."""
    if len(positions) == 1:
        return lambda pieces: (pieces[positions[0]],)
    return itemgetter(*positions)


def _progress(n: int):
    if n <= PROGRESS_FROM:
        return range(n)
    from tqdm import tqdm

    return tqdm(range(n), desc="player", unit="step")
