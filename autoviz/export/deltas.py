"""Per-step changes over each graph's single layout: the data the HTML player replays."""

from dataclasses import dataclass, field, replace

from ..render.frames import Frames
from ..tracing.model import Graph
from ..tracing.timeline import PERSISTENT

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


@dataclass
class _View:
    """The timeline as frame_state reads it, with only the nodes whose slots may change."""

    nodes: list
    edges: list
    steps: list


def step_deltas(frames: Frames, ghost: bool = False) -> Deltas:
    """The layouts of `frames` and what each step changes in its layout's previous state."""
    tl = frames.tl
    layouts, index, values, position = [], {}, {}, {}
    layout_of_step, changes = [], []
    state = {}
    for k, snap, dirty in _steps_in_order(tl):
        graph_no = frames.graph_of_step(k)
        if dirty is None:
            template, state = frames.state(k, ghost, snap=snap)
            touched = None
        else:
            template, fresh = frames.state(k, ghost, _View(dirty, tl.edges, tl.steps), snap)
            touched = _merge(state, fresh, {n.id for n in dirty})
        if graph_no not in index:
            slots = [part for part in template.parts if type(part) is not str]
            index[graph_no] = len(layouts)
            layouts.append(Layout(graph_no, template.fill(state), slots))
            position[graph_no] = {key: i for i, key in enumerate(slots)}
            values[graph_no] = [state.get(key, template.defaults[key]) for key in slots]
        where, now = position[graph_no], values[graph_no]
        keys = where if touched is None else [key for key in touched if key in where]
        step_changes = []
        for key in keys:
            i, value = where[key], state.get(key, template.defaults[key])
            if value != now[i]:
                step_changes.append((i, value))
                now[i] = value
        changes.append(sorted(step_changes))
        layout_of_step.append(index[graph_no])
    return Deltas(layouts, layout_of_step, changes)


def _merge(state: dict, fresh: dict, ids: set) -> list:
    """Take the recomputed entries (label rows of recomputed nodes that are gone are dropped);
    returns the keys that may have changed."""
    gone = []
    for node_id in ids:
        row = 0
        while ("nt", node_id, row) in state:
            if ("nt", node_id, row) not in fresh:
                gone.append(("nt", node_id, row))
            row += 1
    for key in gone:
        del state[key]
    changed = fresh.items() - state.items()  # a set difference in C: most entries are as before
    state.update(fresh)
    return [key for key, _ in changed] + gone


def _steps_in_order(tl):
    """(k, the graph after step k, the nodes whose slots may differ from step k - 1 or None).

    The same graphs as `tl[k]`, replayed once in order instead of from step 0 at every step.
    None means everything may differ: the first step of a graph, or backward starting (an
    intermediate's grad then reads "None (not retained)").
    """
    copies = {n.id: replace(n) for n in tl.nodes}  # every change applied as it comes
    appear = {}  # step -> the nodes that appear at it
    for n in tl.nodes:
        appear.setdefault(n.step, []).append(n)
    ran, previous = set(), None  # graphs whose backward has started; (graph, ran) at k - 1
    for k in _progress(len(tl)):
        step = tl.steps[k]
        graph_no = step.details.get("graph", 0)
        for node_id, name, value in step.changes:
            if node_id in copies:
                setattr(copies[node_id], name, value)
        if step.phase == "backward":
            ran.add(graph_no)
        if previous is None or previous[0] != graph_no:
            members = {n.id: n for n in tl.nodes if n.graph in (graph_no, PERSISTENT)}
            visible = [copies[i] for i, n in members.items() if n.step <= k]
            ids = {n.id for n in visible}
            edges = [e for e in tl.edges if e.source in ids and e.target in ids]
        else:  # nodes and edges only ever appear within one graph
            new = [n for n in appear.get(k, ()) if n.graph in (graph_no, PERSISTENT)]
            visible += [copies[n.id] for n in new]
            ids.update(n.id for n in new)
            edges = [e for e in tl.edges if e.source in ids and e.target in ids] if new else edges
        snap = Graph(
            nodes=list(visible),
            edges=edges,
            backward_ran=graph_no in ran,
            current=[i for i in step.nodes if i in ids],
            step=step,
        )
        now = (graph_no, graph_no in ran)
        if now != previous:
            yield k, snap, None
        else:
            touched = set(step.nodes) | set(tl.steps[k - 1].nodes)
            touched |= {node_id for node_id, _, _ in step.changes}
            touched |= {n.id for n in new}
            yield k, snap, [members[i] for i in touched if i in members]
        previous = now


def _progress(n: int):
    if n <= PROGRESS_FROM:
        return range(n)
    from tqdm import tqdm

    return tqdm(range(n), desc="player", unit="step")
