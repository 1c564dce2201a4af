"""Text on the nodes: names, values and gradients, escaped for Graphviz HTML labels."""

import html


def escape(text: str) -> str:
    """Make user text literal inside an HTML-like label: markup, quotes, control characters."""
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))
    return html.escape(text, quote=True)
