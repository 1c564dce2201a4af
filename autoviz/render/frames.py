"""Stepping frames: each graph of a timeline is laid out once; a frame restyles that SVG."""

import html
import re
from dataclasses import replace

from ..tracing.model import Graph
from ..tracing.text import number, shape_text
from ..tracing.timeline import PERSISTENT, Timeline, snapshot
from .dot import Options, label_rows, to_dot
from .groups import Plan, plan
from .layout import run_layout
from .theme import Theme

_GROUP = re.compile(r'<g id="([^"]+)" class="(node|edge) ([^"]*)">(.*?)</g>', re.S)
_TIMELINE_ID = re.compile(r"[ne]\d+")  # the timeline's own nodes and edges: labels change
_TEXT = re.compile(r"<text([^>]*)>(.*?)</text>", re.S)
_PAIR = re.compile(r"(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)")


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
        self.layout_calls = 0

    def graph_of_step(self, k: int) -> int:
        return self.tl.steps[k].details.get("graph", 0)

    def template(self, graph_no: int):
        if graph_no not in self.templates:
            graph, labels = layout_graph(self.tl, graph_no, self.options)
            source = to_dot(graph, self.theme, self.options, edge_labels=labels)
            self.layout_calls += 1
            svg = run_layout(source, "svg", self.timeout).decode("utf-8")
            layout = plan(graph, self.options)
            self.templates[graph_no] = (source, Template(svg, self.theme), layout)
        return self.templates[graph_no]

    def svg(self, k: int, ghost: bool = False) -> str:
        """The SVG of the frame after step k, without calling the layout engine again."""
        _, template, layout = self.template(self.graph_of_step(k))
        snap = self.tl[k]
        return template.fill(frame_state(self.tl, snap, k, self.options, ghost, layout))

    def state(self, k: int, ghost: bool = False) -> tuple:
        """The Template of step k's graph and every slot's value in its frame (for players)."""
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
        nodes.append(widest)
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
    graph_no = snap.step.details.get("graph", 0)
    visible = {n.id: n for n in snap.nodes}
    current = set(snap.current)
    flows, now = _flows_so_far(tl, k, graph_no)
    state = {}
    for node in tl.nodes:
        if node.graph not in (graph_no, PERSISTENT):
            continue
        shown = visible.get(node.id)
        if shown is None:
            state[("nc", node.id)] = f"node {node.kind} {'ghost' if ghost else 'hidden'}"
            continue
        classes = ["node", shown.kind]
        if shown.made_in_no_grad or shown.detached:
            classes.append("no-grad" if shown.made_in_no_grad else "detached")
        classes += ["current"] * (node.id in current) + ["freed"] * shown.freed
        state[("nc", node.id)] = " ".join(classes)
        for i, row in enumerate(label_rows(shown, snap, options)):
            state[("nt", node.id, i)] = html.escape(row, quote=False)
    for edge in tl.edges:
        if edge.source not in visible or edge.target not in visible:
            state[("ec", edge.id)] = "edge data hidden"
        elif edge.id in flows:
            state[("ec", edge.id)] = "edge data grad" + (" current" if edge.id in now else "")
            state[("et", edge.id)] = html.escape(flows[edge.id], quote=False)
        else:
            state[("ec", edge.id)] = "edge data"
            state[("et", edge.id)] = ""
    if layout is not None:
        _grouped_state(tl, visible, options, ghost, layout, state)
    return state


def _grouped_state(tl, visible: dict, options: Options, ghost: bool, layout: Plan, state) -> None:
    """Module boxes show once any node inside exists; saved tensors with their op."""
    gone = "ghost" if ghost else "hidden"
    for box in layout.boxes:
        shown = any(i in visible for i in box.members)
        state[("nc", box.id)] = "node module" + ("" if shown else f" {gone}")
    for edge in tl.edges:
        ends = (layout.owner.get(edge.source), layout.owner.get(edge.target))
        if ends != (None, None):
            pair = f"{ends[0] or edge.source}-{ends[1] or edge.target}"
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
            self._edge_body(item_id, body)
        self.parts.append("</g>")

    def _node_body(self, node_id: str, body: str) -> None:
        center = _center_x(body)
        pos = 0
        for row, match in enumerate(_TEXT.finditer(body)):
            attrs = re.sub(r'text-anchor="\w+"', 'text-anchor="middle"', match.group(1))
            attrs = re.sub(r' x="[-\d.]+"', f' x="{center:.2f}"', attrs)
            key = ("nt", node_id, row)
            self.defaults[key] = match.group(2)
            self.parts += [body[pos : match.start()], f"<text{attrs}>", key, "</text>"]
            pos = match.end()
        self.parts.append(body[pos:])

    def _edge_body(self, edge_id: str, body: str) -> None:
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
        get, defaults = state.get, self.defaults
        return "".join(
            part if type(part) is str else get(part, defaults[part]) for part in self.parts
        )


def _center_x(body: str) -> float:
    """The horizontal centre of a node's shape (ellipse centre or the points' extent)."""
    ellipse = re.search(r'<ellipse[^>]* cx="([-\d.]+)"', body)
    if ellipse:
        return float(ellipse.group(1))
    shape = re.search(r'<(?:polygon|path)[^>]*(?:points|d)="([^"]*)"', body)
    xs = [float(x) for x, _ in _PAIR.findall(shape.group(1))] if shape else [0.0]
    return (min(xs) + max(xs)) / 2


def _add_style(head: str, theme: Theme) -> str:
    """CSS for the frame classes, inserted right after the opening <svg> tag."""
    css = f"""<style>
.hidden {{ visibility: hidden; }}
.ghost {{ opacity: 0.15; }}
.node.current > path, .node.current > polygon, .node.current > ellipse {{
  stroke: {theme.highlight}; stroke-width: {theme.output_pen + 1.5}px; }}
.node.freed.op > ellipse {{ stroke-dasharray: 5 3; }}
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
