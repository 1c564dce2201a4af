"""DOT text for a Graph: a pure function of the graph, the theme and the options."""

import itertools
import math
from dataclasses import dataclass

from ..tracing.model import Graph, Node
from ..tracing.symbols import symbol as op_symbol
from ..tracing.text import value_text
from .labels import escape
from .theme import DEFAULT, Theme

RANKDIRS = ("LR", "TB", "BT", "RL")
OP_LABELS = ("both", "symbol", "name")
LEGEND_TEXT = {
    "leaf": "leaf tensor (requires_grad)",
    "op": "operation (grad_fn)",
    "intermediate": "intermediate tensor",
    "output": "output",
    "constant": "constant (no grad)",
}


@dataclass(frozen=True)
class Options:
    """What the labels show and which way the graph flows."""

    rankdir: str = "LR"
    op_label: str = "both"
    precision: int = 4
    show_values: bool = True
    show_grads: bool = True
    legend: bool = True

    def __post_init__(self) -> None:
        _choose("rankdir", self.rankdir, RANKDIRS)
        _choose("op_label", self.op_label, OP_LABELS)
        if not isinstance(self.precision, int) or not 1 <= self.precision <= 17:
            raise ValueError(f"precision must be an integer from 1 to 17, got {self.precision!r}")
        for flag in ("show_values", "show_grads", "legend"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be True or False, got {getattr(self, flag)!r}")


def make_options(**options) -> Options:
    """Options from keywords; an unknown keyword is an error listing the valid ones."""
    valid = list(Options.__dataclass_fields__)
    for key in options:
        if key not in valid:
            raise ValueError(f"unknown option {key!r} (must be one of {valid})")
    return Options(**options)


def _choose(option: str, value, allowed) -> None:
    if value not in allowed:
        raise ValueError(f"unknown {option} {value!r} (must be one of {list(allowed)})")


def to_dot(
    graph: Graph, theme: Theme = DEFAULT, options: Options = Options(), edge_labels=None
) -> str:
    """The whole diagram as DOT source, one statement per line.

    With `edge_labels` (edge id -> text), it is the layout for stepping frames: every edge gets
    an arrowhead at both ends (a frame shows one) and room for its gradient label.
    """
    lines = [
        "digraph autoviz {",
        f'\tgraph [rankdir={options.rankdir} bgcolor="{theme.background}" nodesep=0.35 '
        f'ranksep=0.45 pad=0.2 fontname="{theme.font}" fontcolor="{theme.text}"]',
        f'\tnode [fontname="{theme.font}" fontsize={theme.font_size} fontcolor="{theme.text}" '
        f'penwidth={theme.pen} margin="0.15,0.06"]',
        f'\tedge [color="{theme.edge}" penwidth={theme.pen} arrowsize=0.8 fontname="{theme.font}" '
        f'fontcolor="{theme.grad}"]',
    ]
    current = set(graph.current)
    lines += [_node_line(node, graph, theme, options, node.id in current) for node in graph.nodes]
    for i, e in enumerate(graph.edges, 1):
        edge_id = e.id or f"e{i}"
        extra = ""
        if edge_labels is not None:
            extra = " dir=both arrowtail=normal"
            if edge_id in edge_labels:
                text = escape(edge_labels[edge_id])
                extra += f' label=<<font point-size="{theme.small_size}">{text}</font>>'
        lines.append(f'\t{e.source} -> {e.target} [id="{edge_id}" class="data"{extra}]')
    if options.legend and graph.nodes:
        lines += _legend(graph, theme)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _node_line(node: Node, graph: Graph, theme: Theme, options: Options, current: bool) -> str:
    look = theme.kinds[node.kind]
    classes = [node.kind]
    style = look["style"]
    if node.made_in_no_grad or node.detached:
        style += ",dashed"
        classes.append("no-grad" if node.made_in_no_grad else "detached")
    if _non_finite(node.value) or _non_finite(node.grad):
        classes.append("non-finite")
    attrs = {
        "id": node.id,
        "class": " ".join(classes + (["current"] if current else [])),
        "shape": look["shape"],
        "style": style,
        "fillcolor": look["fill"],
        "color": theme.highlight if current else look["border"],
    }
    if current or node.kind == "output":
        attrs["penwidth"] = theme.output_pen
    text = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    return f"\t{node.id} [{text} label=<{_label(node, graph, theme, options)}>]"


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
    if options.show_values:
        value = value_text(node.value, node.shape, options.precision)
        rows.append(f"value: {value}{_warning(node.value)}")
    if options.show_grads and node.requires_grad:
        rows.append(f"grad: {_grad_text(node, graph, options)}{_warning(node.grad)}")
    return rows


def _label(node: Node, graph: Graph, theme: Theme, options: Options) -> str:
    """An HTML-like label: the first row bold, the others smaller."""
    first, *rest = (escape(row) for row in label_rows(node, graph, options))
    small = f'<font point-size="{theme.small_size}">'
    return "<br/>".join([f"<b>{first}</b>", *(f"{small}{row}</font>" for row in rest)])


def _grad_text(node: Node, graph: Graph, options: Options) -> str:
    if node.grad is not None:
        return value_text(node.grad, node.shape, options.precision)
    if node.kind in ("intermediate", "output") and not node.retains_grad and graph.backward_ran:
        return "None (not retained)"
    return "None"


def _non_finite(value) -> bool:
    """True when a preview holds NaN or an infinity anywhere."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, float) and not math.isfinite(item):
            return True
    return False


def _warning(value) -> str:
    return " ⚠ not finite" if _non_finite(value) else ""


def _legend(graph: Graph, theme: Theme) -> list[str]:
    """A key listing only the kinds this diagram uses, drawn in their own shapes."""
    present = [k for k in LEGEND_TEXT if any(n.kind == k for n in graph.nodes)]
    lines = [
        "\tsubgraph cluster_legend {",
        f'\t\tgraph [id="legend" class="legend" label="legend" style="rounded,dashed" '
        f'color="{theme.edge}" fontsize={theme.small_size}]',
        f'\t\tnode [fontsize={theme.small_size} margin="0.08,0.03"]',
    ]
    for kind in present:
        look = theme.kinds[kind]
        pen = f" penwidth={theme.output_pen}" if kind == "output" else ""
        lines.append(
            f'\t\tlegend_{kind} [id="legend-{kind}" class="legend {kind}" shape="{look["shape"]}" '
            f'style="{look["style"]}" fillcolor="{look["fill"]}" color="{look["border"]}"{pen} '
            f'label="{LEGEND_TEXT[kind]}"]'
        )
    if any(n.made_in_no_grad or n.detached for n in graph.nodes):
        look = theme.kinds["constant"]
        lines.append(
            f'\t\tlegend_no_grad [id="legend-no-grad" class="legend no-grad" shape="box" '
            f'style="{look["style"]},dashed" fillcolor="{look["fill"]}" color="{look["border"]}" '
            f'label="no_grad or detached"]'
        )
    names = [f"legend_{k}" for k in present]
    lines += [f"\t\t{a} -> {b} [style=invis]" for a, b in itertools.pairwise(names)]
    lines.append("\t}")
    return lines


__all__ = ["OP_LABELS", "RANKDIRS", "Options", "to_dot"]
