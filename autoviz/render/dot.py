"""DOT text for a Graph: a pure function of the graph, the theme and the options."""

import itertools
import math
import re
from dataclasses import dataclass, replace

from ..tracing.model import Graph, Node
from ..tracing.preview import Summary
from ..tracing.symbols import symbol as op_symbol
from ..tracing.text import label_text, shape_text, stats_of
from . import heat
from .groups import Box, Plan, node_module, plan, roots
from .labels import MAX_ROW, dot_row, tooltip, visible
from .theme import DEFAULT, FONT, Theme

RANKDIRS = ("LR", "TB", "BT", "RL")
OP_LABELS = ("both", "symbol", "name")
VALUES = ("text", "heatmap", "none")
LEGEND_TEXT = {
    "leaf": "leaf tensor (requires_grad)",
    "op": "operation (grad_fn)",
    "intermediate": "intermediate tensor",
    "output": "output",
    "constant": "constant (no grad)",
    "module": "nn.Module, collapsed",
    "fold": "repeated ops, folded: expand opens",
    "saved": "saved for backward",
    "error": "the op that raised",
}
# What a node or edge id may be: written into DOT unquoted and into SVG as its id. The tracer
# writes n1, e1, …; the renderer adds m1 (module boxes), n3_s1 and n3-saved1 (saved tensors).
ID = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
COLLAPSE_ABOVE = 300  # nodes; bigger graphs draw each nn.Module as one box
MAX_NODES = 5000  # drawn nodes; beyond this the layout engine is not started
# Iterations a timeline's exports show step by step (the rest condensed): "auto" chooses by
# STEP_BUDGET, the steps a page steps through in full: a short run is shown whole, a long one
# as its first iterations that fit and its last.
FULL_ITERATIONS = "auto"
STEP_BUDGET = 600
ADVICE = ("python", "cli", "none")  # whom a page's notes tell what to do: see Options.advice
# What dot's time on a big drawing goes to, measured on graphs of 1,000-5,000 nodes of four
# shapes (benchmarks/big_graphs.py): edge labels (the room each gradient label takes: each
# adds a rank of its own) most of all, 72 s for a 1,700-node residual net against 6 s with
# labels placed after layout (xlabel); then the x-coordinate network simplex (nslimit) and
# crossing minimisation (mclimit, searchsize, remincross), 10.7 s against 1.1 s for a
# 3,000-node chain with straight edges. So: past each size, dot is told to do less.
LAYOUT_TIERS = (  # (drawn nodes above, graph attributes added, gradient labels as xlabels)
    (1500, "nslimit=0.5 nslimit1=2 mclimit=0.3 searchsize=5 remincross=false splines=line", True),
    (300, "mclimit=0.5 searchsize=10 remincross=false", True),
)


@dataclass(frozen=True)
class Options:
    """What the labels show and which way the graph flows."""

    rankdir: str = "LR"
    op_label: str | None = None  # None: "both", or "name" alone when inner tensors are hidden
    precision: int = 4
    # Values (and grads) as text, as heatmaps for 1-D and 2-D tensors, or not at all.
    values: str = "text"
    show_grads: bool = True
    legend: bool = True
    show_saved: bool = False
    expand: tuple = ()  # module paths to draw opened, e.g. ("net.1",)
    depth: int | None = None  # module levels drawn opened; None: all, unless the graph is big
    collapse_above: int = COLLAPSE_ABOVE
    max_nodes: int = MAX_NODES
    # Leave out intermediate tensors (edges run op to op, as torchviz draws): True, False, or
    # None to do so when the drawing would still have more than collapse_above nodes.
    hide_inner_tensors: bool | None = None
    # A timeline's exports (player, Stepper, frames, animation) step through some iterations
    # (graphs) in full and show the others condensed, as one entry with their loss and
    # parameters per iteration: "auto" (as many as STEP_BUDGET allows, and the last), a number
    # (the first this many, and the last), a list of iterations to show in full, or None for
    # every one.
    full_iterations: int | tuple | str | None = FULL_ITERATIONS
    # What a page's notes tell their reader to do: "python" (tl.draw(step=k),
    # full_iterations=), "cli" (the command's flags), or "none".
    advice: str = "python"

    def __post_init__(self) -> None:
        _choose("rankdir", self.rankdir, RANKDIRS)
        if self.op_label is not None:
            _choose("op_label", self.op_label, OP_LABELS)
        _choose("values", self.values, VALUES)
        precision = self.precision
        if (
            isinstance(precision, bool)
            or not isinstance(precision, int)
            or not 1 <= precision <= 17
        ):
            raise ValueError(f"precision must be an integer from 1 to 17, got {self.precision!r}")
        for flag in ("show_grads", "legend", "show_saved"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be True or False, got {getattr(self, flag)!r}")
        if self.hide_inner_tensors not in (True, False, None):
            raise ValueError(
                "hide_inner_tensors must be True, False or None (hide them only in big graphs), "
                f"got {self.hide_inner_tensors!r}"
            )
        expand = self.expand
        if isinstance(expand, str) or not all(isinstance(p, str) for p in _iterable(expand)):
            raise ValueError(
                f"expand must be a list of module paths such as ['net.1'], got {expand!r}"
            )
        object.__setattr__(self, "expand", tuple(expand))  # hashable: frames are cached by it
        if self.depth is not None:
            _count("depth", self.depth, 0, "or None to open every module")
        _count("collapse_above", self.collapse_above, 1)
        _count("max_nodes", self.max_nodes, 1)
        _choose("advice", self.advice, ADVICE)
        full = self.full_iterations
        if full == "auto":
            return
        if full is not None and not (isinstance(full, int) and not isinstance(full, bool)):
            chosen = _iterable(full)
            if isinstance(full, str) or not all(_is_count(i) for i in chosen):
                raise ValueError(
                    "full_iterations must be 'auto', a number of iterations (3), a list of "
                    f"iteration numbers ([0, 1, 99]) or None for every iteration, got {full!r}"
                )
            object.__setattr__(self, "full_iterations", tuple(sorted(set(chosen))))
        elif full is not None:
            _count("full_iterations", full, 0, "(or a list of iteration numbers, or None)")


def make_options(**options) -> Options:
    """Options from keywords; an unknown keyword is an error listing the valid ones."""
    valid = list(Options.__dataclass_fields__)
    for key in options:
        if key not in valid:
            raise ValueError(f"unknown option {key!r} (must be one of {valid})")
    return Options(**options)


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _iterable(value):
    try:
        return list(value)
    except TypeError:
        return [None]  # not a list at all: rejected by the caller


def _count(option: str, value, least: int, more: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        more = f" {more}" if more else ""
        raise ValueError(f"{option} must be an integer >= {least}{more}, got {value!r}")


def _choose(option: str, value, allowed) -> None:
    if value not in allowed:
        raise ValueError(f"unknown {option} {value!r} (must be one of {list(allowed)})")


def settle(options: Options, layout: Plan) -> Options:
    """`options` with op_label decided for this drawing.

    Without its inner tensors a drawing is torchviz's graph of grad_fns, usually a big one: each
    op is then one line, PyTorch's name, which also spares the layout engine half its text.
    """
    if options.op_label is not None:
        return options
    return replace(options, op_label="name" if layout.hidden else "both")


def drawing_plan(graph: Graph, options: Options) -> Plan:
    """What a drawing of `graph` shows (see groups.plan); past max_nodes, counting the saved
    tensors drawn, it stops with GraphTooLarge."""
    saved = _saved_ops(graph, options)
    return plan(graph, options, lambda p: sum(len(n.saved) for n in saved if n.id not in p.owner))


def to_dot(
    graph: Graph,
    theme: Theme = DEFAULT,
    options: Options = Options(),
    edge_labels=None,
    layout: Plan | None = None,
    legend_extra: tuple = (),
) -> str:
    """The whole diagram as DOT source, one statement per line.

    Nodes inside nn.Modules sit in nested clusters; big graphs collapse modules to boxes
    (see groups.plan). With `edge_labels` (edge id -> text), it is the layout for stepping
    frames: every edge gets an arrowhead at both ends (a frame shows one) and room for its
    gradient label. `layout` is drawing_plan's, when the caller has it already; `legend_extra`
    names kinds the key lists though no node is drawn so (the op that raised, in frames).
    """
    # margin: 0.22 in either side, as text widths are estimates (dot's tables, graphviz-pure's),
    # a little narrower than browsers draw some text, and long rows would touch the border.
    # newrank: dot's older ranking takes time quadratic in the length of a chain (0.5 s of a
    # 2,000-node chain's 0.75 s), and ranks clusters no differently for graphs like ours.
    lines = [
        "digraph autoviz {",
        f'\tgraph [rankdir={options.rankdir} bgcolor="{theme.background}" nodesep=0.35 '
        f'ranksep=0.45 newrank=true pad=0.2 fontname="{FONT}" fontcolor="{theme.text}"]',
        f'\tnode [fontname="{FONT}" fontsize={theme.font_size} fontcolor="{theme.text}" '
        f'penwidth={theme.pen} margin="0.22,0.06"]',
        f'\tedge [color="{theme.edge}" penwidth={theme.pen} arrowsize=0.8 fontname="{FONT}" '
        f'fontcolor="{theme.grad}"]',
    ]
    _check_ids(graph)
    saved = _saved_ops(graph, options)
    layout = drawing_plan(graph, options) if layout is None else layout
    options = settle(options, layout)
    faster, xlabels = layout_tier(layout.drawn)
    if faster:
        lines[1] = lines[1][:-1] + f" {faster}]"
    current = set(graph.current)
    drawn = [n for n in graph.nodes if layout.draws(n.id)]
    placed = {}  # open module path (None: top level) -> statements inside it
    for node in drawn:
        where = placed.setdefault(node_module(node, layout), [])
        where.append(_node_line(node, graph, theme, options, node.id in current))
        if node in saved:
            where += _saved_lines(node, theme, options)
    for box in layout.boxes:
        placed.setdefault(box.parent, []).append(_box_line(box, theme, options.advice))
    lines += ["\t" + line for line in placed.get(None, [])]
    lines += _clusters(layout, placed, theme)
    lines += _edge_lines(graph, layout, theme, edge_labels, xlabels)
    if options.legend and graph.nodes:
        folds = sum(box.fold is not None for box in layout.boxes)
        extra = ["module"] * (len(layout.boxes) > folds) + ["fold"] * bool(folds)
        extra += ["saved"] * bool(saved) + list(legend_extra)
        lines += _legend(
            drawn, theme, extra, gradients=bool(edge_labels), hidden=bool(layout.hidden)
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def layout_tier(drawn: int) -> tuple:
    """(graph attributes, whether gradient labels are xlabels) for a drawing of `drawn`
    nodes: see LAYOUT_TIERS."""
    for above, attributes, xlabels in LAYOUT_TIERS:
        if drawn > above:
            return attributes, xlabels
    return "", False


def _check_ids(graph: Graph) -> None:
    """Ids go into DOT and SVG as they are: anything but a plain name is refused."""
    for what, items in (("node", graph.nodes), ("edge", graph.edges)):
        for item in items:
            if not ID.fullmatch(item.id) and not (what == "edge" and item.id == ""):
                raise ValueError(
                    f"cannot draw a {what} with id {visible(item.id)[:40]!r}: ids are letters, "
                    "digits and underscores, starting with a letter (n1, e1, …)"
                )


def _saved_ops(graph: Graph, options: Options) -> list:
    return [n for n in graph.nodes if n.saved] if options.show_saved else []


def _edge_lines(graph: Graph, layout: Plan, theme: Theme, edge_labels, xlabels=False) -> list:
    """Data edges; those touching a collapsed module become one edge per pair of ends, and
    those leaving a hidden inner tensor start at the op that made it. With `xlabels`, a
    gradient's label is placed after layout, taking no rank of its own (big drawings)."""
    label = "xlabel" if xlabels else "label"
    lines, merged = [], set()
    for i, e in enumerate(graph.edges, 1):
        ends = layout.ends(e)
        if ends is None:
            continue
        source, target, in_box = ends
        if in_box:
            pair = (source, target)
            if pair[0] != pair[1] and pair not in merged:
                merged.add(pair)
                lines.append(f'\t{pair[0]} -> {pair[1]} [id="{pair[0]}-{pair[1]}" class="data"]')
            continue
        edge_id = e.id or f"e{i}"
        extra = ""
        if e.kind != "data":  # detached from, or computed untracked from: no gradient flows
            extra = f' style=dashed color="{theme.kinds["constant"]["border"]}"'
        elif edge_labels is not None:
            extra = " dir=both arrowtail=normal"
            if edge_id in edge_labels:
                text = dot_row(edge_labels[edge_id]) or "&#32;"
                extra += f' {label}=<<font point-size="{theme.small_size}">{text}</font>>'
        lines.append(f'\t{source} -> {target} [id="{edge_id}" class="{e.kind}"{extra}]')
    return lines


def _clusters(layout: Plan, placed: dict, theme: Theme) -> list:
    """Open modules as nested clusters labelled `net.0 (Linear)`; empty ones are left out."""
    full = _with_content(layout, placed)
    lines, number = [], 0
    stack = [(path, 1, False) for path in reversed(_open_children(layout, None, full))]
    while stack:
        path, indent, closing = stack.pop()
        tabs = "\t" * indent
        if closing:
            lines.append(f"{tabs}}}")
            continue
        number += 1
        group = layout.groups[path]
        label = dot_row(f"{path} ({group.type})") or "&#32;"
        lines += [
            f"{tabs}subgraph cluster_{number} {{",
            f'{tabs}\tgraph [id="module-{number}" class="module-cluster" label=<{label}> '
            f'labeljust=l style="rounded,dashed" color="{theme.cluster}" '
            f'fontcolor="{theme.cluster}" fontsize={theme.small_size}]',
        ]
        lines += [f"{tabs}\t{line}" for line in placed.get(path, [])]
        stack.append((path, indent, True))
        children = _open_children(layout, path, full)
        stack += [(child, indent + 1, False) for child in reversed(children)]
    return lines


def _open_children(layout: Plan, parent, full: set) -> list:
    children = layout.groups[parent].children if parent is not None else roots(layout.groups)
    return [p for p in children if p in full]


def _with_content(layout: Plan, placed: dict) -> set:
    """Open modules that hold something drawn, directly or in a module inside them."""
    full = set()
    for path in placed:
        while path is not None and path in layout.open:
            full.add(path)
            path = layout.groups[path].parent
    return full


def _box_line(box: Box, theme: Theme, advice: str = "python") -> str:
    """A collapsed module: its path, its type and the shapes going in and out; a fold: how
    many blocks it holds, their ops, and how to open it."""
    look = theme.kinds["module"]
    name = box.paths[0] if len(box.paths) == 1 else f"{box.paths[0]} … {box.paths[-1]}"
    rows = [name + (f" ×{len(box.paths)}" if len(box.paths) > 1 else ""), box.type]
    if box.fold is not None:
        fold = box.fold
        rows = [fold.title(), fold.ops_text(), fold.how_to_open(advice)]
        rows = [r for r in rows if r]
    if box.inputs or box.outputs:
        rows.append(f"{_shapes(box.inputs)} → {_shapes(box.outputs)}".strip())
    return (
        f'{box.id} [id="{box.id}" class="module" shape="{look["shape"]}" style="{look["style"]}" '
        f'fillcolor="{look["fill"]}" color="{look["border"]}"{_tooltip(rows)} '
        f'margin="0.22,0.1" label=<{html_rows(rows, theme)}>]'
    )


def _shapes(shapes: list) -> str:
    return ", ".join(shape_text(s) for s in shapes[:3]) + (", …" if len(shapes) > 3 else "")


def _saved_lines(op: Node, theme: Theme, options: Options) -> list:
    """torchviz's saved tensors: small boxes tied to their op by a dashed, undirected edge."""
    look = theme.kinds["saved"]
    lines = []
    for i, entry in enumerate(op.saved, 1):
        name = f"{op.id}_s{i}"
        shown = label_text(entry["value"], tuple(entry["shape"]), options.precision)
        rows = [entry["name"], shown]
        label = f"<b>{dot_row(rows[0]) or '&#32;'}</b><br/>{dot_row(rows[1]) or '&#32;'}"
        lines += [
            f'{name} [id="{op.id}-saved{i}" class="saved" shape="{look["shape"]}" '
            f'style="{look["style"]}" fillcolor="{look["fill"]}" color="{look["border"]}"'
            f'{_tooltip(rows)} fontsize={theme.small_size} margin="0.16,0.04" label=<{label}>]',
            f'{name} -> {op.id} [id="{op.id}-saved{i}-edge" class="saved" style=dashed '
            f'dir=none color="{look["border"]}"]',
        ]
    return lines


def _node_line(node: Node, graph: Graph, theme: Theme, options: Options, current: bool) -> str:
    look = theme.kinds[node.kind]
    classes = [node.kind]
    style = look["style"]
    if node.made_in_no_grad or node.detached:
        style += ",dashed"
        classes.append("no-grad" if node.made_in_no_grad else "detached")
    if _non_finite(node.value) or _non_finite(node.grad):
        classes.append("non-finite")
    fill, border = look["fill"], look["border"]
    if node.error:  # the op the program raised at
        classes.append("error")
        fill, border = theme.error
    attrs = {
        "id": node.id,
        "class": " ".join(classes + (["current"] if current else [])),
        "shape": look["shape"],
        "style": style,
        "fillcolor": fill,
        "color": theme.highlight if current else border,
    }
    if current or node.kind == "output":
        attrs["penwidth"] = theme.output_pen
    text = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    rows = label_rows(node, graph, options)
    return f"{node.id} [{text}{_tooltip(rows)} label=<{node_label(node, rows, options, theme)}>]"


def html_rows(rows: list, theme: Theme) -> str:
    """An HTML-like label: the first row bold, the others smaller; each row escaped and
    shortened (an empty row is a space: dot refuses empty markup)."""
    first, *rest = (dot_row(text) or "&#32;" for text in rows)
    small = f'<font point-size="{theme.small_size}">'
    return "<br/>".join([f"<b>{first}</b>", *(f"{small}{text}</font>" for text in rest)])


def heat_previews(node: Node, options: Options) -> dict:
    """Label row -> the preview drawn as a heatmap under it, for values="heatmap" and a tensor
    (see heat.grid): its value, and the grad of a leaf or of a tensor that retains it (an
    intermediate's grad is None)."""
    if options.values != "heatmap" or node.kind == "op" or heat.grid(node.shape) is None:
        return {}
    out = {1: node.value}
    if options.show_grads and node.requires_grad and (node.kind == "leaf" or node.retains_grad):
        out[2] = node.grad
    return out


def heat_fills(node: Node, options: Options) -> list:
    """The colours of a node's heatmap cells in the order the label draws them; a grad's cells
    are there (empty) even while it draws none, for frames of a layout that does."""
    previews = heat_previews(node, options)
    if not previews:
        return []
    if 2 not in previews and options.show_grads and node.requires_grad:
        previews[2] = None
    return [c for preview in previews.values() for c in heat.fills(preview, node.shape)]


def node_label(node: Node, rows: list, options: Options, theme: Theme) -> str:
    """A node's HTML-like label: its rows, and a table of cells under each row drawn as a
    heatmap (the table's size depends on the shape alone, so frames only recolour it)."""
    blocks = heat_previews(node, options)
    if not blocks:
        return html_rows(rows, theme)
    lines = []
    for i, text in enumerate(rows):
        shown = dot_row(text) or "&#32;"
        cell = (
            f"<b>{shown}</b>" if i == 0 else f'<font point-size="{theme.small_size}">{shown}</font>'
        )
        lines.append(f"<tr><td>{cell}</td></tr>")
        if i in blocks:
            colors = heat.fills(blocks[i], node.shape)
            lines.append(f"<tr><td>{heat.table(colors, node.shape, theme.edge)}</td></tr>")
    body = "".join(lines)
    return f'<table border="0" cellborder="0" cellspacing="0" cellpadding="1">{body}</table>'


def _tooltip(rows: list) -> str:
    """The whole text as a tooltip attribute when a row was shortened in the picture."""
    if all(len(visible(text)) <= MAX_ROW for text in rows):
        return ""
    return f' tooltip="{tooltip(rows)}"'


def label_rows(node: Node, graph: Graph, options: Options) -> list[str]:
    """The lines of a node's label as plain text: name (or op symbol) first."""
    if node.kind == "op":
        symbol = op_symbol(node.op)
        if options.op_label == "symbol":
            return [symbol]
        if options.op_label == "name" or symbol == node.op:
            return [node.op]
        return [symbol, node.op]
    rows = [node.name]
    if options.values != "none":
        rows.append(f"value: {_shown(node.value, node, options)}{_warning(node.value)}")
    if options.show_grads and node.requires_grad:
        rows.append(f"grad: {_grad_text(node, graph, options)}{_warning(node.grad)}")
    return rows


def _shown(value, node: Node, options: Options, grad: bool = False) -> str:
    """A value row's text; over a heatmap, the shape and the range its colours stand for."""
    if options.values == "heatmap" and value is not None and heat.grid(node.shape):
        return f"{shape_text(node.shape)} {heat.range_text(value, options.precision)}"
    return label_text(value, node.shape, options.precision, grad)


def _grad_text(node: Node, graph: Graph, options: Options) -> str:
    if node.grad is not None:
        return _shown(node.grad, node, options, grad=True)
    if node.kind in ("intermediate", "output") and not node.retains_grad and graph.backward_ran:
        return "None (not retained)"
    return "None"


def _non_finite(value) -> bool:
    """True when a preview holds NaN or an infinity anywhere."""
    if type(value) is float:  # a scalar's preview, the usual case
        return not math.isfinite(value)
    if type(value) is Summary:
        return bool(value.nan or value.pinf or value.ninf)
    if type(value) is list and value:  # its Stats, which its label row reads too
        s = stats_of(value)
        return bool(s.nan or s.pinf or s.ninf)
    return False


def _warning(value) -> str:
    return " ⚠ not finite" if _non_finite(value) else ""


def _legend(nodes: list, theme: Theme, extra=(), gradients=False, hidden=False) -> list[str]:
    """A key listing only the kinds this diagram draws, in their own shapes.

    `gradients`: the frames of a timeline whose backward pass turns edges into gradient flow.
    `hidden`: intermediate tensors are left out, so edges run from op to op.
    """
    kinds = (
        {n.kind for n in nodes} | set(extra) | ({"error"} if any(n.error for n in nodes) else set())
    )
    present = [k for k in LEGEND_TEXT if k in kinds]
    lines = [
        "\tsubgraph cluster_legend {",
        f'\t\tgraph [id="legend" class="legend" label="legend" style="rounded,dashed" '
        f'color="{theme.edge}" fontsize={theme.small_size}]',
        f'\t\tnode [fontsize={theme.small_size} margin="0.16,0.04"]',
    ]
    for kind in present:
        look = theme.kinds.get("module" if kind == "fold" else kind) or {
            **theme.kinds["op"],
            "fill": theme.error[0],
        }
        border = theme.error[1] if kind == "error" else look["border"]
        pen = f" penwidth={theme.output_pen}" if kind == "output" else ""
        lines.append(
            f'\t\tlegend_{kind} [id="legend-{kind}" class="legend {kind}" shape="{look["shape"]}" '
            f'style="{look["style"]}" fillcolor="{look["fill"]}" color="{border}"{pen} '
            f'label="{LEGEND_TEXT[kind]}"]'
        )
    if any(n.made_in_no_grad or n.detached for n in nodes):
        look = theme.kinds["constant"]
        lines.append(
            f'\t\tlegend_no_grad [id="legend-no-grad" class="legend no-grad" shape="box" '
            f'style="{look["style"]},dashed" fillcolor="{look["fill"]}" color="{look["border"]}" '
            f'label="no_grad or detached"]'
        )
    names = [f"legend_{k}" for k in present]
    if hidden:
        lines.append(
            '\t\tlegend_hidden [id="legend-hidden" class="legend hidden-tensors" shape="box" '
            'penwidth=0 label="op → op: intermediate tensors not drawn"]'
        )
        names.append("legend_hidden")
    if gradients:
        lines.append(
            f'\t\tlegend_grad [id="legend-grad" class="legend grad" shape="box" penwidth=0 '
            f'fontcolor="{theme.grad}" label="← gradient: upstream × local = contribution"]'
        )
        names.append("legend_grad")
    lines += [f"\t\t{a} -> {b} [style=invis]" for a, b in itertools.pairwise(names)]
    lines.append("\t}")
    return lines


__all__ = ["COLLAPSE_ABOVE", "MAX_NODES", "OP_LABELS", "RANKDIRS", "VALUES", "Options", "to_dot"]
