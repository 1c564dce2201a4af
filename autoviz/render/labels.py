"""Text on the nodes: names, values and gradients, escaped for Graphviz HTML labels."""

import html


def escape(text: str) -> str:
    """Make user text literal inside an HTML-like label: markup, quotes, control characters."""
    text = str(text)
    if not text.isprintable():  # rare: checking each character is slow
        text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return html.escape(text, quote=True)
