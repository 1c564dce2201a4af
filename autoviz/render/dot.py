"""DOT text for a Graph: a pure function of the graph, the theme and the options."""

from dataclasses import dataclass

from ..tracing.model import Graph, Node
from ..tracing.symbols import symbol as op_symbol
from ..tracing.text import value_text
from .labels import escape
from .theme import DEFAULT, Theme

RANKDIRS = ("LR", "TB", "BT", "RL")
OP_LABELS = ("both", "symbol", "name")


@dataclass(frozen=True)
class Options:
    """What the labels show and which way the graph flows."""

    rankdir: str = "LR"
    op_label: str = "both"
    precision: int = 4
    show_values: bool = True
    show_grads: bool = True

    def __post_init__(self) -> None:
        _choose("rankdir", self.rankdir, RANKDIRS)
        _choose("op_label", self.op_label, OP_LABELS)
        if not isinstance(self.precision, int) or not 1 <= self.precision <= 17:
            raise ValueError(f"precision must be an integer from 1 to 17, got {self.precision!r}")


def _choose(option: str, value, allowed) -> None:
    if value not in allowed:
        raise ValueError(f"unknown {option} {value!r} (must be one of {list(allowed)})")


def to_dot(graph: Graph, theme: Theme = DEFAULT, options: Options = Options()) -> str:
    """The whole diagram as DOT source, one statement per line."""
    lines = [
        "digraph autoviz {",
        f'\tgraph [rankdir={options.rankdir} bgcolor="{theme.background}" nodesep=0.35 '
        f'ranksep=0.45 pad=0.2 fontname="{theme.font}"]',
        f'\tnode [fontname="{theme.font}" fontsize={theme.font_size} fontcolor="{theme.text}" '
        f'penwidth={theme.pen} margin="0.15,0.06"]',
        f'\tedge [color="{theme.edge}" penwidth={theme.pen} arrowsize=0.8]',
    ]
    lines += [_node_line(node, graph, theme, options) for node in graph.nodes]
    lines += [
        f'\t{e.source} -> {e.target} [id="{e.id or f"e{i}"}" class="data"]' for i, e in enumerate(graph.edges, 1)
    ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _node_line(node: Node, graph: Graph, theme: Theme, options: Options) -> str:
    style = theme.kinds[node.kind]
    attrs = {
        "id": node.id,
        "class": node.kind,
        "shape": style["shape"],
        "style": style["style"],
        "fillcolor": style["fill"],
        "color": style["border"],
    }
    if style["pen"]:
        attrs["penwidth"] = style["pen"]
    text = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    return f"\t{node.id} [{text} label=<{_label(node, graph, theme, options)}>]"


def _label(node: Node, graph: Graph, theme: Theme, options: Options) -> str:
    small = f'<font point-size="{theme.small_size}">'
    if node.kind == "op":
        symbol = escape(op_symbol(node.op))
        name = escape(node.op)
        if options.op_label == "symbol":
            return f"<b>{symbol}</b>"
        if options.op_label == "name" or symbol == name:
            return f"<b>{name}</b>"
        return f"<b>{symbol}</b><br/>{small}{name}</font>"
    rows = [f"<b>{escape(node.name)}</b>"]
    if options.show_values:
        rows.append(f"{small}value: {escape(_data_text(node.value, node.shape, options))}</font>")
    if options.show_grads and node.requires_grad:
        rows.append(f"{small}grad: {escape(_grad_text(node, graph, options))}</font>")
    return "<br/>".join(rows)


def _data_text(value, shape, options: Options) -> str:
    return value_text(value, shape, options.precision)


def _grad_text(node: Node, graph: Graph, options: Options) -> str:
    if node.grad is not None:
        return _data_text(node.grad, node.shape, options)
    if node.kind in ("intermediate", "output") and not node.retains_grad and graph.backward_ran:
        return "None (not retained)"
    return "None"


__all__ = ["OP_LABELS", "RANKDIRS", "Options", "to_dot"]
