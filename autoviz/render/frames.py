"""Stepping frames: each graph of a timeline is laid out once; a frame restyles that SVG."""

import html
import re
from dataclasses import replace

from ..tracing.model import Graph
from ..tracing.text import number, shape_text
from ..tracing.timeline import PERSISTENT, Timeline, snapshot
from .dot import Options, drawing_plan, label_rows, settle, to_dot
from .groups import Plan
from .layout import svg_layout
from .theme import Theme

_GROUP = re.compile(r'<g id="([^"]+)" class="(node|edge) ([^"]*)">(.*?)</g>', re.S)
CHUNK = 128  # pieces of SVG joined together (a 1,000-node frame has about 24,000 pieces)
_TIMELINE_ID = re.compile(r"[ne]\d+")  # the timeline's own nodes and edges: labels change
_TEXT = re.compile(r"<text([^>]*)>(.*?)</text>", re.S)


def flow_label(flow) -> str:
    """`upstream × local = contribution` for scalars; shapes for tensors."""
    if not flow.shape and flow.local is not None:
        return f"{number(flow.upstream)} × {number(flow.local)} = {number(flow.contribution)}"
    if not flow.shape:
        return f"{number(flow.contribution)}"
    return f"grad {shape_text(flow.shape)}"


class Frames:
    """The frames of a timeline in one theme: a layout per graph, built on first need."""

    def __init__(self, tl: Timeline, theme: Theme, options: Options, timeout=None) -> None:
        self.tl, self.theme, self.options, self.timeout = tl, theme, options, timeout
        self.templates = {}  # graph number -> (DOT source, Template, Plan)
        self.sequences = {}  # (graph number, ghost) -> FrameSequence
        self.layout_calls = 0

    def graph_of_step(self, k: int) -> int:
        return self.tl.steps[k].details.get("graph", 0)

    def template(self, graph_no: int):
        if graph_no not in self.templates:
            graph, labels = layout_graph(self.tl, graph_no, self.options)
            layout = drawing_plan(graph, self.options)
            source = to_dot(graph, self.theme, self.options, edge_labels=labels, layout=layout)
            self.layout_calls += 1
            svg = svg_layout(source, self.timeout)
            self.templates[graph_no] = (source, Template(svg, self.theme), layout)
        return self.templates[graph_no]

    def svg(self, k: int, ghost: bool = False) -> str:
        """The SVG of the frame after step k, without calling the layout engine again."""
        graph_no = self.graph_of_step(k)
        sequence = self.sequences.get((graph_no, ghost))
        if sequence is None:
            _, template, layout = self.template(graph_no)
            sequence = FrameSequence(self.tl, graph_no, template, layout, self.options, ghost)
            self.sequences[(graph_no, ghost)] = sequence
        return sequence.svg(k)

    def state(self, k: int, ghost: bool = False) -> tuple:
        """The Template of step k's graph and every slot's value in its frame, from scratch."""
        _, template, layout = self.template(self.graph_of_step(k))
        return template, frame_state(self.tl, self.tl[k], k, self.options, ghost, layout)


def layout_graph(tl: Timeline, graph_no: int, options: Options) -> tuple[Graph, dict]:
    """Every node of one graph (and every leaf) with its widest label, plus edge labels."""
    last = max(s.index for s in tl.steps if s.details.get("graph", 0) == graph_no)
    final = snapshot(tl, last)
    final.current = []
    first = {n.id: n for n in tl.nodes}
    nodes = []
    for node in final.nodes:
        start = replace(first[node.id])
        rows_end = label_rows(node, final, options)
        rows_start = label_rows(start, Graph(), options)
        widest = node if _width(rows_end) >= _width(rows_start) else start
        # Laid out as it first looks; frames paint the op that raised red (class `error`).
        nodes.append(replace(widest, error=False) if widest.error else widest)
    labels = {}
    for step in tl.steps[: last + 1]:
        if step.details.get("graph", 0) != graph_no:
            continue
        for flow in step.flows:
            edge_id = tl.edges[flow.edge].id
            text = flow_label(flow)
            if len(text) > len(labels.get(edge_id, "")):
                labels[edge_id] = text
    graph = Graph(nodes, final.edges, backward_ran=final.backward_ran)
    return graph, labels


def _width(rows) -> int:
    return max(len(r) for r in rows)


def frame_state(
    tl: Timeline, snap: Graph, k: int, options: Options, ghost: bool, layout: Plan | None = None
) -> dict:
    """Classes and texts of every node and edge at step k."""
    if layout is not None:
        options = settle(options, layout)
    graph_no = snap.step.details.get("graph", 0)
    visible = {n.id: n for n in snap.nodes}
    current = set(snap.current)
    flows, now = _flows_so_far(tl, k, graph_no)
    state = {}
    for node in tl.nodes:
        if node.graph in (graph_no, PERSISTENT):
            _node_state(node, visible.get(node.id), node.id in current, snap, options, ghost, state)
    for edge in tl.edges:
        _edge_state(edge, visible, flows, now, state)
    if layout is not None:
        _grouped_state(tl, visible, options, ghost, layout, state)
    return state


def _node_state(node, shown, current: bool, graph, options: Options, ghost: bool, state) -> None:
    """The class and label rows of one node; `shown` is its state now, None if not made yet."""
    if shown is None:
        state[("nc", node.id)] = f"node {node.kind} {'ghost' if ghost else 'hidden'}"
        return
    classes = ["node", shown.kind]
    if shown.made_in_no_grad or shown.detached:
        classes.append("no-grad" if shown.made_in_no_grad else "detached")
    if shown.error:
        classes.append("error")
    classes += ["current"] * current + ["freed"] * shown.freed
    state[("nc", node.id)] = " ".join(classes)
    for i, row in enumerate(label_rows(shown, graph, options)):
        state[("nt", node.id, i)] = html.escape(row, quote=False)


def _edge_state(edge, visible, flows: dict, now: set, state) -> None:
    if edge.source not in visible or edge.target not in visible:
        state[("ec", edge.id)] = f"edge {edge.kind} hidden"
    elif edge.kind != "data":
        state[("ec", edge.id)] = f"edge {edge.kind}"
    elif edge.id in flows:
        state[("ec", edge.id)] = "edge data grad" + (" current" if edge.id in now else "")
        state[("et", edge.id)] = html.escape(flows[edge.id], quote=False)
    else:
        state[("ec", edge.id)] = "edge data"
        state[("et", edge.id)] = ""


def _grouped_state(tl, visible: dict, options: Options, ghost: bool, layout: Plan, state) -> None:
    """Module boxes show once any node inside exists; saved tensors with their op."""
    gone = "ghost" if ghost else "hidden"
    for box in layout.boxes:
        shown = any(i in visible for i in box.members)
        state[("nc", box.id)] = "node module" + ("" if shown else f" {gone}")
    for edge in tl.edges:
        ends = layout.ends(edge)
        if ends is not None and ends[2]:
            pair = f"{ends[0]}-{ends[1]}"
            shown = edge.source in visible and edge.target in visible
            if shown or ("ec", pair) not in state:
                state[("ec", pair)] = "edge data" + ("" if shown else f" {gone}")
    if not options.show_saved:
        return
    for node in tl.nodes:
        for i in range(1, len(node.saved) + 1):
            extra = "" if node.id in visible else f" {gone}"
            state[("nc", f"{node.id}-saved{i}")] = "node saved" + extra
            state[("ec", f"{node.id}-saved{i}-edge")] = "edge saved" + extra


def _flows_so_far(tl: Timeline, k: int, graph_no: int) -> tuple[dict, set]:
    """Edge id -> latest flow label in this backward pass; the edges of step k itself."""
    flows = {}
    for step in tl.steps[: k + 1]:
        if step.details.get("graph", 0) != graph_no:
            continue
        if step.kind == "seed":
            flows = {}
        for flow in step.flows:
            flows[tl.edges[flow.edge].id] = flow_label(flow)
    now = {tl.edges[f.edge].id for f in tl.steps[k].flows}
    return flows, now


class FrameSequence:
    """The frames of one graph, derived in order: a frame rewrites only what its step touched.

    Stepping forward costs the few nodes and edges a step acts on; going back, or jumping in
    from another graph, recomputes the whole frame once (frame_state) and goes on from there.
    """

    def __init__(self, tl, graph_no, template, layout, options: Options, ghost: bool) -> None:
        self.tl, self.graph_no, self.template, self.layout = tl, graph_no, template, layout
        self.options, self.ghost = settle(options, layout), ghost
        self.at = None
        self.appear = {}  # step -> ids of the nodes of this graph that appear at it
        self.touching = {}  # node id -> edges at it
        self.edge_by_id = {e.id: e for e in tl.edges}
        for node in tl.nodes:
            if node.graph in (graph_no, PERSISTENT):
                self.appear.setdefault(node.step, []).append(node)
        for edge in tl.edges:
            self.touching.setdefault(edge.source, []).append(edge)
            self.touching.setdefault(edge.target, []).append(edge)
        self.grouped = bool(layout.boxes) or options.show_saved

    def svg(self, k: int) -> str:
        self.pieces(k)
        for i in self.dirty:
            self.chunks[i] = "".join(self.out[i * CHUNK : (i + 1) * CHUNK])
        self.dirty.clear()
        return "".join(self.chunks)

    def pieces(self, k: int) -> list:
        """The SVG after step k as pieces, slot values in place (`Template.index` finds them)."""
        steps = self.tl.steps
        fresh = self.at is None or k < self.at
        if not fresh and any(_graph(steps[s]) != self.graph_no for s in range(self.at + 1, k + 1)):
            fresh = True  # another graph ran in between: its steps changed shared leaves
        if fresh:
            self._reset(k)
        else:
            for s in range(self.at + 1, k + 1):
                self._advance(s)
        return self.out

    def _reset(self, k: int) -> None:
        snap = self.tl[k]
        state = frame_state(self.tl, snap, k, self.options, self.ghost, self.layout)
        self.out = self.template.filled(state)
        # Joined in chunks, so a frame re-joins only the chunks its step changed.
        self.chunks = [""] * -(-len(self.out) // CHUNK)
        self.dirty = set(range(len(self.chunks)))
        self.live = {n.id: n for n in snap.nodes}  # the snapshot's copies, changes applied
        self.current = set(snap.current)
        self.graph = Graph(backward_ran=snap.backward_ran)  # what label_rows reads
        self.flows, self.now = _flows_so_far(self.tl, k, self.graph_no)
        self.at = k

    def _advance(self, k: int) -> None:
        step, state = self.tl.steps[k], {}
        made = [replace(n) for n in self.appear.get(k, ())]
        for node in made:
            self.live[node.id] = node
        touched = {n.id for n in made} | self.current
        for node_id, field_name, value in step.changes:
            if node_id in self.live:
                setattr(self.live[node_id], field_name, value)
                touched.add(node_id)
        self.current = {i for i in step.nodes if i in self.live}
        touched |= self.current
        if step.phase == "backward" and not self.graph.backward_ran:
            self.graph.backward_ran = True  # "grad: None (not retained)" from now on
            touched = set(self.live)
        edges = [e for n in made for e in self.touching.get(n.id, ())]
        edges += self._flow_edges(step)
        for node_id in touched:
            node = self.live[node_id]
            current = node_id in self.current
            _node_state(node, node, current, self.graph, self.options, self.ghost, state)
        for edge in edges:
            _edge_state(edge, self.live, self.flows, self.now, state)
        if made and self.grouped:
            _grouped_state(self.tl, self.live, self.options, self.ghost, self.layout, state)
        index, out, dirty = self.template.index, self.out, self.dirty
        for key, value in state.items():
            position = index.get(key)
            if position is not None and out[position] != value:
                out[position] = value
                dirty.add(position // CHUNK)
        self.at = k

    def _flow_edges(self, step) -> list:
        """Update the gradient flows; the edges whose look changes with them."""
        edges = self.tl.edges
        changed = set(self.now)
        if step.kind == "seed":
            changed |= set(self.flows)
            self.flows = {}
        for flow in step.flows:
            self.flows[edges[flow.edge].id] = flow_label(flow)
        self.now = {edges[f.edge].id for f in step.flows}
        changed |= self.now
        return [self.edge_by_id[i] for i in changed]


def _graph(step) -> int:
    return step.details.get("graph", 0)


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
        pos = 0
        for row, match in enumerate(_TEXT.finditer(body)):
            key = ("nt", node_id, row)
            self.defaults[key] = match.group(2)
            self.parts += [body[pos : match.start()], f"<text{match.group(1)}>", key, "</text>"]
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
.node.current > path, .node.current > polygon, .node.current > ellipse {{
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
