"""Per-step changes over each graph's single layout: the data the HTML player replays."""

from dataclasses import dataclass, field

from ..progress import progress as bar
from ..render.frames import Frames, FrameSequence


@dataclass
class Layout:
    """One graph's SVG, filled with the state of its first step, and its slot keys in order."""

    graph_no: int
    svg: str
    slots: list = field(default_factory=list)


@dataclass
class Deltas:
    """Layouts in order of first use; per entry its layout and the (slot, value) pairs it
    changes.

    Values are as they stand in the SVG (label text HTML-escaped). Replaying the changes of
    entries 0..i over the layouts' first states gives exactly the frame of entry i. Entries are
    the timeline's steps (`steps`), except that a graph too large to draw has one entry only,
    and so has each run of condensed iterations (Frames.entries), with what they show instead
    of a caption in `notes` (None for every other entry).
    """

    layouts: list[Layout]
    layout_of_step: list[int]
    changes: list[list[tuple[int, str]]]
    steps: list[int] = field(default_factory=list)
    notes: list = field(default_factory=list)
    condensed: list = field(default_factory=list)  # per entry: its iterations' range, or None


def step_deltas(frames: Frames, ghost: bool = False, progress: bool = True) -> Deltas:
    """The layouts of `frames` and what each step changes in its layout's previous state.

    The renderer's FrameSequence derives the frames of a layout in order, rewriting only what a
    step touched; the changes are the slots whose values differ from the layout's previous
    frame. Graphs sharing a layout (a loop's iterations) follow on from each other in it.
    """
    index, sequences, slot_at = {}, {}, {}
    entries = frames.entries()
    deltas = Deltas([], [], [], [e.step for e in entries], [frames.note(e) for e in entries])
    deltas.condensed = [e.graphs for e in entries]
    for entry in bar(entries, "player") if progress else entries:
        k = entry.step
        if entry.graphs is not None:  # condensed iterations: their chart, never changed
            graph_no, (_, template), plan = entry.graphs[0], frames.condensed(entry.graphs), None
        else:
            graph_no = frames.graph_of_step(k)
            _, template, plan = frames.template(graph_no)
        key = id(template)  # graphs of one shape share it; a summary or chart is its own
        if key not in index:
            slots = [part for part in template.parts if type(part) is not str]
            slot_at[key] = {template.index[slot]: i for i, slot in enumerate(slots)}
            if plan is None:  # a summary or a chart: one picture, never changed
                sequences[key] = _Still(template.filled({}))
            else:
                sequences[key] = FrameSequence(frames, frames.leader(graph_no), ghost)
            index[key] = len(deltas.layouts)
            pieces = sequences[key].pieces(k)
            deltas.layouts.append(Layout(graph_no, "".join(pieces), slots))
            deltas.changes.append([])  # the inline SVG is this entry's frame already
        else:
            sequence = sequences[key]
            pieces = sequence.pieces(k)
            at, changed = slot_at[key], sequence.changed.items()
            # The pieces the sequence rewrote, those not back to what they were: the changes.
            now = [(at[p], pieces[p]) for p, old in changed if pieces[p] != old]
            deltas.changes.append(sorted(now))
        deltas.layout_of_step.append(index[key])
    return deltas


class _Still:
    """The pieces of a picture that no step changes (a summary)."""

    def __init__(self, pieces: list) -> None:
        self.out, self.changed = pieces, {}

    def pieces(self, k: int) -> list:
        return self.out
