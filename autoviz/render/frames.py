"""Stepping frames: each graph of a timeline is laid out once; a frame restyles that SVG."""

import re
from bisect import bisect_right
from typing import NamedTuple

from ..errors import GraphTooLarge, LayoutTimeout
from ..tracing.index import GraphPart, index_of
from ..tracing.model import PERSISTENT, Edge, Graph, Node
from ..tracing.text import number, shape_text
from ..tracing.timeline import Timeline
from .dot import STEP_BUDGET, Options, drawing_plan, heat_fills, label_rows, settle, to_dot
from .groups import Plan
from .labels import row
from .layout import check_timeout, svg_layout
from .plot import condensed_svg, condensed_text
from .summary import summary_dot, summary_svg, summary_text
from .theme import Theme

_GROUP = re.compile(r'<g id="([^"]+)" class="(node|edge) ([^"]*)">(.*?)</g>', re.S)
CHUNK = 128  # pieces of SVG joined together (a 1,000-node frame has about 24,000 pieces)
_TIMELINE_ID = re.compile(r"[ne]\d+")  # the timeline's own nodes and edges: labels change
_TEXT = re.compile(r"<text([^>]*)>(.*?)</text>", re.S)
# A heatmap cell's fill inside a node (stroke "none" in graphviz-pure, "transparent" in dot):
# the node's own shape always has a stroke.
_CELL = re.compile(r'<polygon fill="([^"]*)" stroke="(?:none|transparent)"')
_PIECE = re.compile(r"<text([^>]*)>(.*?)</text>|" + _CELL.pattern, re.S)


def flow_label(flow) -> str:
    """`upstream × local = contribution` for scalars; shapes for tensors."""
    if not flow.shape and flow.local is not None:
        return f"{number(flow.upstream)} × {number(flow.local)} = {number(flow.contribution)}"
    if not flow.shape:
        return f"{number(flow.contribution)}"
    return f"grad {shape_text(flow.shape)}"


def not_drawn(tl: Timeline) -> dict:
    """{first step: (last step, nodes, why)} of each graph an export of `tl` showed as one
    summary picture (GraphTooLarge, LayoutTimeout): what the command line reports."""
    return dict(sorted(tl.__dict__.get("_not_drawn", {}).items()))


class Frames:
    """The frames of a timeline in one theme: one layout per structure, built on first need.

    Graphs with the same structure (a training loop's iterations) share the layout of the first
    of them, so nodes keep their places from one iteration to the next; a later graph fills its
    slots (see Part). A graph too large to draw gets a summary picture instead of frames.
    """

    def __init__(self, tl: Timeline, theme: Theme, options: Options, timeout=None) -> None:
        self.tl, self.theme, self.options = tl, theme, options
        self.timeout = check_timeout(timeout)
        self.index = index_of(tl)
        self.templates = {}  # leading graph -> (DOT source, Template, Plan or None: a summary)
        self.summaries = {}  # graph -> its summary's template, for the later graphs of a shape
        self.too_large = {}  # leading graph -> why it was not drawn (GraphTooLarge, LayoutTimeout)
        self.charts = {}  # range of condensed graphs -> (DOT source, Template) of their chart
        self.sequences = {}  # (leading graph, ghost) -> FrameSequence
        self.parts = {}  # graph number -> Part
        self._leaders = {}  # graph number -> the first graph of the same structure
        self._first, self._keyed, self._numbers = {}, 0, None  # structure -> its first graph
        self.layout_calls = 0

    def graph_of_step(self, k: int) -> int:
        return self.index.graph_of_step[k]

    def leader(self, graph_no: int) -> int:
        """The first graph with the structure of graph `graph_no`: whose layout it uses.
        Structures are found in order, as far as the graphs asked about (an export showing
        three iterations of two thousand looks at three)."""
        numbers = self.numbers()
        while graph_no not in self._leaders and self._keyed < len(numbers):
            g = numbers[self._keyed]
            key = structure(self.index, self.index.graph(g), self.tl.edges)
            self._leaders[g] = self._first.setdefault(key, g)
            self._keyed += 1
        return self._leaders.get(graph_no, graph_no)

    def numbers(self) -> list:
        """The numbers of the graphs that have steps, in order."""
        if self._numbers is None:
            self._numbers = [g for g, part in sorted(self.index.parts.items()) if part.steps]
        return self._numbers

    def shown(self) -> list:
        """The graphs an export steps through in full (Options.full_iterations): a count
        (or "auto", the count that fits STEP_BUDGET) means the first so many and the last, so
        that the last entry is the run's real last step."""
        full, numbers = self.options.full_iterations, self.numbers()
        if full is None:
            return numbers
        if full == "auto":
            full = self._fitting(numbers)
        if isinstance(full, int):
            return numbers if full >= len(numbers) else [*numbers[:full], numbers[-1]]
        chosen = set(full)
        return [g for g in numbers if g in chosen]

    def _fitting(self, numbers: list) -> int:
        """How many first iterations fit STEP_BUDGET steps beside the last (all of a short
        run; at least one)."""
        sizes = [len(self.index.graph(g).steps) for g in numbers]
        if sum(sizes) <= STEP_BUDGET:
            return len(numbers)
        room, count = STEP_BUDGET - sizes[-1], 0
        while count < len(sizes) - 1 and sizes[count] <= room:
            room -= sizes[count]
            count += 1
        return max(count, 1)

    def _width_sources(self, leader: int) -> list:
        """The graphs whose labels size a layout: its first, and the last one shown in full
        that has its structure (the leader alone when none is)."""
        last = leader
        for g in reversed(self.shown()):
            if g > leader and self.leader(g) == leader:
                last = g
                break
        return [leader] if last == leader else [leader, last]

    def part(self, graph_no: int) -> "Part":
        if graph_no not in self.parts:
            leader = self.leader(graph_no)
            lead = None if leader == graph_no else self.index.graph(leader)
            self.parts[graph_no] = Part(self, self.index.graph(graph_no), lead)
        return self.parts[graph_no]

    def template(self, graph_no: int):
        """(DOT source, Template, Plan) of the layout graph `graph_no` is drawn in; the Plan is
        None for a graph too large to draw, whose template is its own summary picture."""
        leader = self.leader(graph_no)
        if leader not in self.templates:
            self.templates[leader] = self._make_template(leader)
        if self.templates[leader][2] is None and graph_no != leader:
            if graph_no not in self.summaries:  # a later graph of the same shape
                self.summaries[graph_no] = self._not_drawn(graph_no, self.too_large[leader])
            return self.summaries[graph_no]
        return self.templates[leader]

    def _make_template(self, leader: int):
        parts = [self.part(g) for g in self._width_sources(leader)]
        try:
            graph, labels, layout = layout_graph(parts, self.options)
        except GraphTooLarge as error:
            return self._not_drawn(leader, error)
        # the op that raised is laid out as it first looks (yellow), but the key lists it
        raised = any(self.index.ever(n, "error") for part in parts for n in part.originals)
        source = to_dot(
            graph,
            self.theme,
            self.options,
            edge_labels=labels,
            layout=layout,
            legend_extra=("error",) * raised,
        )
        self.layout_calls += 1
        try:
            svg = svg_layout(source, self.timeout)
        except LayoutTimeout as error:  # an export still gets written: the summary says why
            return self._not_drawn(leader, error)
        return source, Template(svg, self.theme), layout

    def _not_drawn(self, graph_no: int, error: Exception):
        """The summary of a graph no layout was made for; the timeline keeps why (not_drawn)."""
        self.too_large.setdefault(self.leader(graph_no), error)
        part = self.index.graph(graph_no)
        record = self.tl.__dict__.setdefault("_not_drawn", {})
        record[part.steps[0]] = (part.steps[-1], len(part.nodes), error)
        return self._summary(graph_no, error)

    def _summary(self, graph_no: int, error: GraphTooLarge):
        lines = summary_text(self.index.graph(graph_no), error, self.options.advice)
        return summary_dot(lines), Template(summary_svg(lines, self.theme), self.theme), None

    def folding_notes(self) -> list[str]:
        """What the layouts made so far left out, a line each: a graph's folds and how to open
        them, or that it was too large to draw and why (what a command tells its user)."""
        notes = []
        for leader, (_, _, plan) in sorted(self.templates.items()):
            part = self.index.graph(leader)
            head = f"steps {part.steps[0]:,}–{part.steps[-1]:,} ({len(part.nodes):,} nodes)"
            if plan is None:
                why = str(self.too_large[leader]).split(": ")[0]
                notes.append(f"{head}: too large to draw, shown as a summary ({why})")
            else:
                notes += [f"{head}: {fold.note(self.options.advice)}" for fold in plan.folds]
        return notes

    def is_summary(self, graph_no: int) -> bool:
        """Whether graph `graph_no` is too large to draw (its frames are one summary picture)."""
        return self.template(graph_no)[2] is None

    def entries(self) -> list["Entry"]:
        """What an export shows, in order: every step of the iterations shown in full (see
        Options.full_iterations), but one entry for a graph too large to draw (its summary)
        and one for each run of condensed iterations (their chart)."""
        numbers, shown = self.numbers(), set(self.shown())
        out, run = [], []
        for g in [*numbers, None]:  # None: the end, which closes the last run
            if g is not None and g not in shown:
                run.append(g)
                continue
            if run:
                out.append(Entry(self.index.graph(run[0]).steps[0], range(run[0], run[-1] + 1)))
                run = []
            if g is not None:
                steps = self.index.graph(g).steps
                out += [Entry(k) for k in (steps[:1] if self.is_summary(g) else steps)]
        return out

    def condensed(self, graphs: range):
        """(DOT source, Template) of the chart standing for condensed iterations `graphs`."""
        if graphs not in self.charts:
            from ..tracing.iterations import iterations

            wanted = set(graphs)
            its = [it for it in iterations(self.tl) if it.number in wanted]
            text = condensed_text(its, self.options.advice)
            source = summary_dot([text])
            chart = condensed_svg(its, self.theme, self.options.advice)
            self.charts[graphs] = (source, Template(chart, self.theme))
        return self.charts[graphs]

    def note(self, entry: "Entry") -> str | None:
        """What an entry's caption says instead of its step's: a summary, or condensed runs."""
        if entry.graphs is not None:
            from ..tracing.iterations import iterations

            wanted = set(entry.graphs)
            its = [it for it in iterations(self.tl) if it.number in wanted]
            return condensed_text(its, self.options.advice)
        return self.summary(entry.step)

    def entry_svg(self, entry: "Entry", ghost: bool = False) -> str:
        """The picture of an entry: its step's frame, or the chart of condensed iterations."""
        if entry.graphs is not None:
            return self.condensed(entry.graphs)[1].fill({})
        return self.svg(entry.step, ghost)

    def summary(self, k: int) -> str | None:
        """For a step of a graph too large to draw, the line saying so; else None."""
        graph_no = self.graph_of_step(k)
        if not self.is_summary(graph_no):
            return None
        return summary_text(self.index.graph(graph_no))[0]

    def svg(self, k: int, ghost: bool = False) -> str:
        """The SVG of the frame after step k, without calling the layout engine again."""
        graph_no = self.graph_of_step(k)
        _, template, layout = self.template(graph_no)
        if layout is None:
            return template.fill({})
        key = (self.leader(graph_no), ghost)
        if key not in self.sequences:
            self.sequences[key] = FrameSequence(self, key[0], ghost)
        return self.sequences[key].svg(k)

    def state(self, k: int, ghost: bool = False) -> tuple:
        """The Template of step k's graph and every slot's value in its frame, from scratch."""
        graph_no = self.graph_of_step(k)
        _, template, layout = self.template(graph_no)
        if layout is None:
            return template, {}
        return template, frame_state(self.part(graph_no), k, self.options, ghost, layout)


class Entry(NamedTuple):
    """One picture an export shows: the frame of `step`; or, with `graphs`, a chart of those
    condensed iterations (`step` is the first of their steps)."""

    step: int
    graphs: range | None = None


def structure(index, graph: GraphPart, edges: list) -> tuple:
    """What a layout depends on besides label text: the graph's own nodes in order (kind, op,
    shape, module, saved tensors), the leaves it shows, and its edges between them."""
    own = [n for n in graph.nodes if n.graph != PERSISTENT]
    position = {n.id: i for i, n in enumerate(own)}
    nodes = tuple(
        (
            n.kind,
            n.op,
            tuple(n.shape),
            n.dtype,
            n.requires_grad,
            n.detached,
            n.made_in_no_grad,
            bool(index.ever(n, "retains_grad")),
            tuple(tuple(level) for level in n.module),
            tuple((s["name"], tuple(s["shape"])) for s in n.saved),
        )
        for n in own
    )
    leaves = frozenset(n.id for n in graph.nodes if n.graph == PERSISTENT)
    links = tuple(
        (
            position.get(edges[i].source, edges[i].source),
            position.get(edges[i].target, edges[i].target),
            edges[i].index,
            edges[i].kind,
        )
        for i in graph.edges
    )
    return nodes, leaves, links


class Part:
    """One graph of a timeline as its layout's slots see it: under the ids of the layout's
    first graph, matched node for node and edge for edge (leaves keep their own ids)."""

    def __init__(self, frames: Frames, graph: GraphPart, leader: GraphPart | None) -> None:
        self.index, self.number, self.steps = frames.index, graph.number, graph.steps
        self.first_backward = graph.first_backward
        self.originals = graph.nodes
        edges = [frames.tl.edges[i] for i in graph.edges]
        if leader is None:
            self.slot = {n.id: n.id for n in graph.nodes}
            self.nodes, self.edges = graph.nodes, edges
        else:
            # its own nodes matched in order; the leaves are the same nodes in both
            lead_own = [n.id for n in leader.nodes if n.graph != PERSISTENT]
            own = [n for n in graph.nodes if n.graph != PERSISTENT]
            self.slot = {n.id: n.id for n in graph.nodes}
            self.slot.update((n.id, lead) for n, lead in zip(own, lead_own, strict=True))
            self.nodes = [_renamed(n, self.slot[n.id]) for n in graph.nodes]
            lead_ids = [frames.tl.edges[i].id for i in leader.edges]
            slot = self.slot
            self.edges = [
                Edge(slot[e.source], slot[e.target], e.index, id=lead_id, kind=e.kind)
                for e, lead_id in zip(edges, lead_ids, strict=True)
            ]
        # the timeline's index of each edge -> its slot's id
        self.edge_id = {i: e.id for i, e in zip(graph.edges, self.edges, strict=True)}
        self.all_steps, self.last = frames.tl.steps, graph.steps[-1]
        self.steps_until = graph.steps_until
        self._appear = None
        self._by_slot = None

    def visible(self, k: int) -> dict:
        """Slot id -> the node as it stood after step k, for the nodes made by then."""
        state, out = self.index.state, {}
        for own, node in zip(self.originals, self.nodes, strict=True):
            if own.step <= k:
                copy = state(own, k)
                copy.id = node.id
                out[node.id] = copy
        return out

    def backward_ran(self, k: int) -> bool:
        return self.first_backward is not None and self.first_backward <= k

    def only_mine(self, after: int, k: int) -> bool:
        """Whether every step after `after` up to k is one of this graph's."""
        return bisect_right(self.steps, k) - bisect_right(self.steps, after) == k - after

    def appearing(self) -> tuple[dict, dict]:
        """Step -> the nodes that appear at it; slot id -> the edges at that node."""
        if self._appear is None:
            appear, touching = {}, {}
            for node in self.nodes:
                appear.setdefault(node.step, []).append(node)
            for edge in self.edges:
                touching.setdefault(edge.source, []).append(edge)
                touching.setdefault(edge.target, []).append(edge)
            self._appear = appear, touching
        return self._appear

    def flows(self, step) -> list:
        """(edge slot, flow) of each of step's flows this graph draws: not one along an edge
        from a tensor of an earlier graph (backward going on into a freed graph), which is in
        neither graph's picture."""
        return [(self.edge_id[f.edge], f) for f in step.flows if f.edge in self.edge_id]

    def edge_by_slot(self) -> dict:
        if self._by_slot is None:
            self._by_slot = {e.id: e for e in self.edges}
        return self._by_slot


def _renamed(node: Node, node_id: str) -> Node:
    copy = object.__new__(Node)
    copy.__dict__.update(node.__dict__)
    copy.id = node_id
    return copy


def layout_graph(parts: list, options: Options) -> tuple[Graph, dict, Plan]:
    """Every node of a layout with its widest label, the edge labels, and the drawing's plan.

    `parts` are the graphs drawn in it whose labels count (the first and last of them): each
    node gets the widest of its labels as made and as finally filled in, in any of them.
    """
    first = parts[0]
    final = first.visible(first.last)
    graph = Graph(list(final.values()), first.edges, backward_ran=first.backward_ran(first.last))
    layout = drawing_plan(graph, options)
    rows = {}  # slot id -> the widest label's node
    for part in parts:
        ended = Graph(backward_ran=part.backward_ran(part.last))
        final = part.visible(part.last)
        for start in part.nodes:
            for node, context in ((final.get(start.id, start), ended), (start, _NEW)):
                width = _width(label_rows(node, context, options))
                if width > rows.get(node.id, (-1,))[0]:
                    rows[node.id] = (width, node)
    # Laid out as each node first looks: frames paint the op that raised red (class `error`).
    graph.nodes = [_without_error(rows[n.id][1]) for n in graph.nodes]
    labels = {}
    for part in parts:
        for k in part.steps:
            for edge_id, flow in part.flows(part.all_steps[k]):
                text = flow_label(flow)
                if len(text) > len(labels.get(edge_id, "")):
                    labels[edge_id] = text
    return graph, labels, layout


def _without_error(node: Node) -> Node:
    if not node.error:
        return node
    copy = _renamed(node, node.id)
    copy.error = False
    return copy


_NEW = Graph()  # what label_rows reads for a node just made: no backward yet


def _width(rows) -> int:
    return max(len(r) for r in rows)


def frame_state(part: Part, k: int, options: Options, ghost: bool, layout: Plan) -> dict:
    """Classes and texts of every node and edge of `part`'s graph at step k, by slot."""
    options = settle(options, layout)
    visible = part.visible(k)
    slot, step = part.slot, part.all_steps[k]
    current = {slot[i] for i in step.nodes if i in slot}
    graph = Graph(backward_ran=part.backward_ran(k))
    flows, now = _flows_so_far(part, k)
    state = {}
    for node in part.nodes:
        _node_state(node, visible.get(node.id), node.id in current, graph, options, ghost, state)
    for edge in part.edges:
        _edge_state(edge, visible, flows, now, state)
    _grouped_state(part, visible, options, ghost, layout, state, current)
    return state


def _node_state(node, shown, current: bool, graph, options: Options, ghost: bool, state) -> None:
    """The class and label rows of one node; `shown` is its state now, None if not made yet."""
    if shown is None:
        state[("nc", node.id)] = f"node {node.kind} {'ghost' if ghost else 'hidden'}"
        return
    state[("nc", node.id)] = _node_class(shown, current)
    for i, text in enumerate(label_rows(shown, graph, options)):
        state[("nt", node.id, i)] = row(text)
    for i, fill in enumerate(heat_fills(shown, options)):
        state[("nf", node.id, i)] = fill


def _node_class(shown, current: bool) -> str:
    classes = ["node", shown.kind]
    if shown.made_in_no_grad or shown.detached:
        classes.append("no-grad" if shown.made_in_no_grad else "detached")
    if shown.error:
        classes.append("error")
    classes += ["current"] * current + ["freed"] * shown.freed
    return " ".join(classes)


def _edge_state(edge, visible, flows: dict, now: set, state) -> None:
    if edge.source not in visible or edge.target not in visible:
        state[("ec", edge.id)] = f"edge {edge.kind} hidden"
    elif edge.kind != "data":  # a detached tensor's link: no gradient flows along it
        state[("ec", edge.id)] = f"edge {edge.kind}"
    elif edge.id in flows:
        state[("ec", edge.id)] = "edge data grad" + (" current" if edge.id in now else "")
        state[("et", edge.id)] = row(flows[edge.id])
    else:
        state[("ec", edge.id)] = "edge data"
        state[("et", edge.id)] = ""


def _grouped_state(
    part: Part, visible: dict, options: Options, ghost: bool, layout: Plan, state, current=()
):
    """Module boxes show once any node inside exists, and are the step's own (`current`) when
    it acts on a node inside; saved tensors show with their op."""
    gone = "ghost" if ghost else "hidden"
    inside = {layout.owner[i] for i in current if i in layout.owner}
    for box in layout.boxes:
        shown = any(i in visible for i in box.members)
        look = ("" if shown else f" {gone}") + (" current" if box.id in inside else "")
        state[("nc", box.id)] = "node module" + look
    if layout.boxes:
        for edge in part.edges:
            ends = layout.ends(edge)
            if ends is not None and ends[2]:
                pair = f"{ends[0]}-{ends[1]}"
                shown = edge.source in visible and edge.target in visible
                if shown or ("ec", pair) not in state:
                    state[("ec", pair)] = "edge data" + ("" if shown else f" {gone}")
    if not options.show_saved:
        return
    for node in part.nodes:
        for i in range(1, len(node.saved) + 1):
            extra = "" if node.id in visible else f" {gone}"
            state[("nc", f"{node.id}-saved{i}")] = "node saved" + extra
            state[("ec", f"{node.id}-saved{i}-edge")] = "edge saved" + extra


def _flows_so_far(part: Part, k: int) -> tuple[dict, set]:
    """Edge slot -> latest flow label in this backward pass; the edges of step k itself."""
    flows, steps = {}, part.all_steps
    for s in part.steps_until(k):
        step = steps[s]
        if step.kind == "seed":
            flows = {}
        for edge_id, flow in part.flows(step):
            flows[edge_id] = flow_label(flow)
    now = {edge_id for edge_id, _ in part.flows(steps[k])}
    return flows, now


class FrameSequence:
    """The frames drawn in one layout, derived in order: a frame rewrites only what its step
    touched.

    Stepping forward costs the few nodes and edges a step acts on; going back, or jumping in
    from another graph, recomputes the whole frame once (frame_state) and goes on from there.
    """

    def __init__(self, frames: Frames, leader: int, ghost: bool) -> None:
        _, self.template, self.layout = frames.template(leader)
        self.frames, self.ghost = frames, ghost
        self.options = settle(frames.options, self.layout)
        self.grouped = bool(self.layout.boxes) or self.options.show_saved
        self.part, self.at = None, None

    def svg(self, k: int) -> str:
        self.pieces(k)
        for i in self.dirty:
            self.chunks[i] = "".join(self.out[i * CHUNK : (i + 1) * CHUNK])
        self.dirty.clear()
        return "".join(self.chunks)

    def pieces(self, k: int) -> list:
        """The SVG after step k as pieces, slot values in place (`Template.index` finds them);
        `changed` holds the value each rewritten piece had before (position -> old value)."""
        self.changed = {}
        part = self.frames.part(self.frames.graph_of_step(k))
        # Another graph's steps in between may have changed shared leaves: start afresh.
        if part is not self.part or k < self.at or not part.only_mine(self.at, k):
            self._reset(part, k)
        else:
            for s in range(self.at + 1, k + 1):
                self._advance(s)
        return self.out

    def _reset(self, part: Part, k: int) -> None:
        state = frame_state(part, k, self.options, self.ghost, self.layout)
        if self.part is None:
            self.out = self.template.filled(state)
            # Joined in chunks, so a frame re-joins only the chunks its step changed.
            self.chunks = [""] * -(-len(self.out) // CHUNK)
            self.dirty = set(range(len(self.chunks)))
        else:
            self._write(state)
        self.part, self.live = part, part.visible(k)  # the nodes' copies, changes applied
        step = part.all_steps[k]
        self.current = {part.slot[i] for i in step.nodes if i in part.slot} & set(self.live)
        self.graph = Graph(backward_ran=part.backward_ran(k))  # what label_rows reads
        self.flows, self.now = _flows_so_far(part, k)
        self.at = k

    def _write(self, state: dict) -> None:
        """Put `state` into the pieces; slots it does not name take the template's default."""
        index, out, dirty, defaults = (
            self.template.index,
            self.out,
            self.dirty,
            self.template.defaults,
        )
        changed = self.changed
        for key, position in index.items():
            value = state.get(key, defaults[key])
            if out[position] != value:
                changed.setdefault(position, out[position])
                out[position] = value
                dirty.add(position // CHUNK)

    def _advance(self, k: int) -> None:
        part, state = self.part, {}
        step = part.all_steps[k]
        slot, live = part.slot, self.live
        made = [_renamed(n, n.id) for n in part.appearing()[0].get(k, ())]
        for node in made:
            live[node.id] = node
        touched = {n.id for n in made}  # nodes whose label rows change
        for node_id, field_name, value in step.changes:
            node = live.get(slot.get(node_id))
            if node is not None:
                setattr(node, field_name, value)
                touched.add(node.id)
        current = {slot[i] for i in step.nodes if slot.get(i) in live}
        highlight = (current ^ self.current) - touched  # only their class changes
        if self.grouped:
            self._current_boxes(current, state)
        self.current = current
        if step.phase == "backward" and not self.graph.backward_ran:
            self.graph.backward_ran = True  # "grad: None (not retained)" from now on
            touched, highlight = set(live), ()
        for node_id in touched:
            node = live[node_id]
            _node_state(node, node, node_id in current, self.graph, self.options, self.ghost, state)
        for node_id in highlight:
            state[("nc", node_id)] = _node_class(live[node_id], node_id in current)
        touching = part.appearing()[1]
        edges = [e for n in made for e in touching.get(n.id, ())]
        edges += self._flow_edges(step)
        for edge in edges:
            _edge_state(edge, live, self.flows, self.now, state)
        if made and self.grouped:
            self._grouped_made(made, touching, state)
        index, out, dirty, changed = self.template.index, self.out, self.dirty, self.changed
        for key, value in state.items():
            position = index.get(key)
            if position is not None and out[position] != value:
                changed.setdefault(position, out[position])
                out[position] = value
                dirty.add(position // CHUNK)
        self.at = k

    def _current_boxes(self, current: set, state: dict) -> None:
        """A box is the step's own while the step acts on a node inside it (a fold's
        iterations): its class follows the current nodes in and out of it."""
        owner = self.layout.owner
        inside = {owner[i] for i in current if i in owner}
        before = {owner[i] for i in self.current if i in owner}
        for box in inside ^ before:
            shown = state.get(("nc", box), "node module").replace(" current", "")
            state[("nc", box)] = shown + (" current" if box in inside else "")

    def _grouped_made(self, made: list, touching: dict, state: dict) -> None:
        """What _grouped_state sets that nodes just made change: the boxes holding them, the
        merged edges at them, their saved tensors (a step costs its nodes, not the graph)."""
        layout, live, boxes = self.layout, self.live, {b.id: b for b in self.layout.boxes}
        for node in made:
            box = layout.owner.get(node.id)
            if box is not None and box in boxes:
                mine = any(layout.owner.get(i) == box for i in self.current)
                state[("nc", box)] = "node module" + " current" * mine
            for edge in touching.get(node.id, ()):
                ends = layout.ends(edge)
                if ends is not None and ends[2] and edge.source in live and edge.target in live:
                    state[("ec", f"{ends[0]}-{ends[1]}")] = "edge data"
            if self.options.show_saved:
                for i in range(1, len(node.saved) + 1):
                    state[("nc", f"{node.id}-saved{i}")] = "node saved"
                    state[("ec", f"{node.id}-saved{i}-edge")] = "edge saved"

    def _flow_edges(self, step) -> list:
        """Update the gradient flows; the edges whose look changes with them."""
        changed = set(self.now)
        if step.kind == "seed":
            changed |= set(self.flows)
            self.flows = {}
        drawn = self.part.flows(step)
        for edge_id, flow in drawn:
            self.flows[edge_id] = flow_label(flow)
        self.now = {edge_id for edge_id, _ in drawn}
        changed |= self.now
        by_slot = self.part.edge_by_slot()
        return [by_slot[i] for i in changed]


class Template:
    """A laid-out SVG cut into fixed text and slots for classes and label texts."""

    def __init__(self, svg: str, theme: Theme) -> None:
        self.parts = []  # strings and slot keys, alternating as they come
        self.defaults = {}
        pos = 0
        for match in _GROUP.finditer(svg):
            self.parts.append(svg[pos : match.start()])
            self._group(match)
            pos = match.end()
        self.parts.append(svg[pos:])
        self.parts[0] = _add_style(self.parts[0], theme)
        self.index = {part: i for i, part in enumerate(self.parts) if type(part) is not str}

    def _group(self, match) -> None:
        item_id, what, classes, body = match.groups()
        key = ("nc" if what == "node" else "ec", item_id)
        self.parts += [f'<g id="{item_id}" class="', key, '">']
        self.defaults[key] = f"{what} {classes}"
        if not _TIMELINE_ID.fullmatch(item_id):  # a module box, saved tensor, legend: as is
            self.parts.append(body)
        elif what == "node":
            self._node_body(item_id, body)
        else:
            self._edge_body(item_id, body, classes.split()[0] == "data")
        self.parts.append("</g>")

    def _node_body(self, node_id: str, body: str) -> None:
        """Slots for each label row's text and each heatmap cell's fill."""
        pos, rows, cells = 0, 0, 0
        for match in _PIECE.finditer(body):
            self.parts.append(body[pos : match.start()])
            if match.group(3) is None:
                key = ("nt", node_id, rows)
                rows += 1
                self.defaults[key] = match.group(2)
                self.parts += [f"<text{match.group(1)}>", key, "</text>"]
            else:
                key = ("nf", node_id, cells)
                cells += 1
                self.defaults[key] = match.group(3)
                self.parts += ['<polygon class="cell" fill="', key, '" stroke="none"']
            pos = match.end()
        self.parts.append(body[pos:])

    def _edge_body(self, edge_id: str, body: str, data: bool) -> None:
        if data:  # drawn with arrowheads at both ends: a frame shows one (see _add_style)
            polygons = iter(("tail", "head"))
            body = re.sub(r"<polygon ", lambda m: f'<polygon class="{next(polygons, "")}" ', body)
        match = _TEXT.search(body)
        if match is None:
            self.parts.append(body)
            return
        key = ("et", edge_id)
        self.defaults[key] = match.group(2)
        attrs = match.group(1)
        self.parts += [
            body[: match.start()],
            f'<text class="flow"{attrs}>',
            key,
            "</text>",
            body[match.end() :],
        ]

    def fill(self, state: dict) -> str:
        """The SVG with every slot taken from `state` (or as laid out)."""
        return "".join(self.filled(state))

    def filled(self, state: dict) -> list:
        """The SVG's pieces with every slot taken from `state` (or as laid out)."""
        get, defaults = state.get, self.defaults
        return [part if type(part) is str else get(part, defaults[part]) for part in self.parts]


def _add_style(head: str, theme: Theme) -> str:
    """CSS for the frame classes, inserted right after the opening <svg> tag."""
    css = f"""<style>
.hidden {{ visibility: hidden; }}
.ghost {{ opacity: 0.15; }}
.node.current > title + :is(path, polygon, ellipse) {{
  stroke: {theme.highlight}; stroke-width: {theme.output_pen + 1.5}px; }}
.node.freed.op > ellipse {{ stroke-dasharray: 5 3; }}
.node.error > ellipse {{ fill: {theme.error[0]}; stroke: {theme.error[1]}; }}
.edge .tail {{ display: none; }}
.edge.grad > path {{ stroke: {theme.grad}; stroke-width: {theme.pen * 2}px; }}
.edge.grad > polygon {{ fill: {theme.grad}; stroke: {theme.grad}; }}
.edge.grad .head {{ display: none; }}
.edge.grad .tail {{ display: inline; }}
.edge.grad {{ opacity: 0.55; }}
.edge.grad.current {{ opacity: 1; }}
.edge .flow {{ fill: {theme.grad}; font-weight: bold; }}
</style>
"""
    tag_end = head.index(">", head.index("<svg")) + 1
    return head[:tag_end] + "\n" + css + head[tag_end:]
