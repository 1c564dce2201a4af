"""An animated SVG of a timeline: each graph's one layout, stepped by CSS keyframes, no script."""

import html
import re

HOLD_STEPS = 2  # the last frame stays this many steps longer before the loop starts again

_GROUP = re.compile(r'<g id="([ne]\d+)" class="((?:node|edge) [^"]*)">(.*?)</g>', re.S)
_SVG_TAG = re.compile(r"<svg\b[^>]*>")
_VIEWBOX = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"')
_STYLE = re.compile(r"<style>.*?</style>\n?", re.S)


class Clock:
    """Turns sets of steps into CSS keyframes; elements with equal timing share one rule."""

    def __init__(self, n_steps: int, seconds_per_step: float) -> None:
        self.n, self.total = n_steps, n_steps + HOLD_STEPS
        self.seconds = self.total * seconds_per_step
        self.rules = {}  # (property, on value, off value, steps) -> class name

    def window(self, steps, prop="visibility", on="visible", off="hidden") -> str:
        """The classes that show an element during `steps` only (none when always shown)."""
        steps = frozenset(steps)
        if len(steps) == self.n:
            return ""
        key = (prop, on, off, steps)
        if key not in self.rules:
            self.rules[key] = f"w{len(self.rules)}"
        return f" a {self.rules[key]}"

    def css(self) -> str:
        """One @keyframes per distinct timing, jumping (never easing) from step to step."""
        lines = [
            f".a{{animation:{_num(self.seconds)}s step-end infinite}}",
            # Without motion the picture stays on each graph's last frame, as drawn statically.
            "@media (prefers-reduced-motion:reduce){.a{animation:none}}",
        ]
        for (prop, on, off, steps), name in self.rules.items():
            stops, shown = [], None
            for k in range(self.n):
                if (k in steps) != shown:
                    shown = k in steps
                    stops.append(f"{_num(100 * k / self.total)}%{{{prop}:{on if shown else off}}}")
            stops.append(f"100%{{{prop}:{on if shown else off}}}")
            lines.append(f".{name}{{animation-name:{name}}}@keyframes {name}{{{''.join(stops)}}}")
        return "\n".join(lines)


def _num(x: float) -> str:
    return f"{x:.4f}".rstrip("0").rstrip(".")


def graphs_of(tl) -> dict:
    """Graph number -> the steps drawn with its layout, in order."""
    by_graph = {}
    for step in tl.steps:
        by_graph.setdefault(step.details.get("graph", 0), []).append(step.index)
    return by_graph


def size_of(svg: str) -> tuple[float, float]:
    """Width and height of an SVG's viewBox."""
    _, _, width, height = (float(v) for v in _VIEWBOX.search(_SVG_TAG.search(svg)[0]).groups())
    return width, height


def animated_svg(tl, frames: list[str], theme, seconds_per_step: float, captions=True) -> str:
    """One SVG that steps through `frames` with CSS keyframes, looping; no script at all."""
    clock = Clock(len(frames), seconds_per_step)
    by_graph = graphs_of(tl)
    several = len(by_graph) > 1
    width = max(size_of(frames[steps[0]])[0] for steps in by_graph.values())
    height = max(size_of(frames[steps[0]])[1] for steps in by_graph.values())
    body = [_layer(frames, steps, clock, no, several, width) for no, steps in by_graph.items()]
    if captions:
        body += [_caption(tl, k, theme, width, height, clock) for k in range(len(frames))]
    return document(frames[0], theme, width, height, captions, clock.css(), "".join(body))


def still_svg(tl, frames: list[str], k: int, theme, size, captions=True) -> str:
    """The frame of step k on the animation's canvas, with its caption: one GIF frame."""
    width, height = size
    w, h = size_of(frames[k])
    tag = _SVG_TAG.search(frames[k])
    inner = _STYLE.sub("", frames[k][tag.end() : frames[k].rindex("</svg>")], count=1)
    body = _nested(f"step-{k}", ' class="layer"', (width - w) / 2, w, h, inner)
    if captions:
        body += _caption(tl, k, theme, width, height, None)
    return document(frames[k], theme, width, height, captions, "", body)


def document(frame: str, theme, width: float, height: float, captions, css: str, body) -> str:
    """The outer SVG: the frames' stylesheet, the timing rules, a background and `body`."""
    full = height + (_strip(theme) if captions else 0)
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        f'<svg width="{_num(width)}pt" height="{_num(full)}pt" '
        f'viewBox="0 0 {_num(width)} {_num(full)}" xmlns="http://www.w3.org/2000/svg" '
        'xmlns:xlink="http://www.w3.org/1999/xlink">\n'
        "<title>autoviz: the forward and backward passes, step by step</title>\n"
        f"{_STYLE.search(frame)[0]}<style>\n{css}\n</style>\n"
        f'<rect width="100%" height="100%" fill="{theme.background}"/>\n{body}</svg>\n'
    )


def _nested(layer_id: str, attrs: str, x: float, w: float, h: float, inner: str) -> str:
    """A graph's own SVG, centred on the canvas."""
    return (
        f'<svg id="{layer_id}"{attrs} x="{_num(x)}" y="0" width="{_num(w)}" '
        f'height="{_num(h)}" viewBox="0 0 {_num(w)} {_num(h)}">{inner}</svg>\n'
    )


def _layer(frames, steps, clock: Clock, graph_no: int, several: bool, width: float) -> str:
    """One graph's layout as a nested <svg>: each node and edge once per distinct look."""
    first = frames[steps[0]]
    looks = {}  # element id -> {(classes, body) -> steps showing that look}
    for k in steps:
        for item, classes, body in _GROUP.findall(frames[k]):
            if "hidden" not in classes.split():
                looks.setdefault(item, {}).setdefault((classes, body), []).append(k)
    last = steps[-1]

    def element(match) -> str:
        copies = []
        for (classes, body), shown in looks.get(match[1], {}).items():
            # Renderers without CSS animation show each graph's last frame.
            still = "" if last in shown else ' visibility="hidden"'
            copies.append(f'<g class="{classes}{clock.window(shown)}"{still}>{body}</g>')
        return f'<g id="{match[1]}">{"".join(copies)}</g>'

    tag = _SVG_TAG.search(first)
    inner = _GROUP.sub(element, first[tag.end() : first.rindex("</svg>")])
    inner = _STYLE.sub("", inner, count=1)
    attrs = ' class="layer"'
    if several:  # graph after graph: ids made unique per layer, layers shown in turn
        inner = re.sub(r'\bid="', f'id="g{graph_no}-', inner)
        attrs = f' class="layer{clock.window(steps, "opacity", "1", "0")}"'
        attrs += "" if last == clock.n - 1 else ' opacity="0"'  # static: the last graph
    w, h = size_of(first)
    return _nested(f"graph-{graph_no}", attrs, (width - w) / 2, w, h, inner)


def _strip(theme) -> float:
    return (theme.font_size + theme.small_size) * 1.5 + 8


def _caption(tl, k: int, theme, width: float, top: float, clock: Clock | None) -> str:
    """Step number, phase banner and the step's caption, under the picture."""
    from ..tracing.explain import banner

    step = tl.steps[k]
    big, small = theme.font_size, theme.small_size
    fits = int((width - 24) / (0.55 * small))  # Helvetica averages about 0.55 em per glyph
    caption = step.caption if len(step.caption) <= fits else step.caption[: fits - 1] + "…"
    font = f'font-family="{theme.font}" fill="{theme.text}"'
    classes, still = "", ""
    if clock is not None:
        classes = clock.window([k])
        still = "" if k == clock.n - 1 else ' visibility="hidden"'
    return (
        f'<g id="caption-{k}" class="caption{classes}"{still} '
        f'transform="translate(12 {_num(top + 4)})">'
        f'<text y="{_num(big * 1.2)}" font-size="{_num(big)}" font-weight="bold" {font}>'
        f"Step {k + 1} of {len(tl)} · {html.escape(banner(step))}</text>"
        f'<text y="{_num(big * 1.2 + small * 1.5)}" font-size="{_num(small)}" {font}>'
        f"{html.escape(caption)}</text></g>\n"
    )
