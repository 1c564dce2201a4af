"""An animated SVG of a timeline: each graph's one layout, stepped by CSS keyframes, no script."""

import re

from ..render.labels import escape
from ..render.theme import FONT_FAMILY

HOLD_STEPS = 2  # the last frame stays this many steps longer before the loop starts again

# Every node and edge group: the timeline's own, module boxes, saved tensors, the legend.
_GROUP = re.compile(r'<g id="([^"]+)" class="((?:node|edge) [^"]*)">(.*?)</g>', re.S)
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
            stops = [] if 0 in steps else [f"0%{{{prop}:{off}}}"]
            for start, end in _runs(sorted(steps)):
                stops.append(f"{_num(100 * start / self.total)}%{{{prop}:{on}}}")
                if end < self.n:  # the last step's look is held to the end of the loop
                    stops.append(f"{_num(100 * end / self.total)}%{{{prop}:{off}}}")
            stops.append(f"100%{{{prop}:{on if self.n - 1 in steps else off}}}")
            lines.append(f".{name}{{animation-name:{name}}}@keyframes {name}{{{''.join(stops)}}}")
        return "\n".join(lines)


def _runs(steps: list) -> list:
    """Runs of consecutive steps as [start, end) pairs: [1, 2, 3, 7] -> [(1, 4), (7, 8)]."""
    runs = []
    for k in steps:
        if runs and runs[-1][1] == k:
            runs[-1][1] = k + 1
        else:
            runs.append([k, k + 1])
    return [tuple(r) for r in runs]


def _num(x: float) -> str:
    return f"{x:.4f}".rstrip("0").rstrip(".")


def size_of(svg: str) -> tuple[float, float]:
    """Width and height of an SVG's viewBox."""
    _, _, width, height = (float(v) for v in _VIEWBOX.search(_SVG_TAG.search(svg)[0]).groups())
    return width, height


def animated_svg(frames, shown: list, svgs, seconds_per_step: float, captions=True) -> str:
    """One SVG stepping through the `shown` entries of `frames` (their SVGs come in order from
    `svgs`) with CSS keyframes, looping; no script at all. Frames are read one at a time: only
    their distinct looks are kept, one set per layout (a loop's iterations share one)."""
    tl, theme = frames.tl, frames.theme
    clock = Clock(len(shown), seconds_per_step)
    layers = {}  # layout -> Layer, in order of first use
    for i, (entry, svg) in enumerate(zip(shown, svgs, strict=True)):
        key = picture(frames, entry)
        if key not in layers:
            layers[key] = Layer(len(layers), svg)
        layers[key].add(i, svg)
    width = max(layer.size[0] for layer in layers.values())
    height = max(layer.size[1] for layer in layers.values())
    several = len(layers) > 1
    body = [layer.svg(clock, several, width) for layer in layers.values()]
    if captions:
        body += [
            _caption(tl, e.step, theme, width, height, clock, i, frames.note(e))
            for i, e in enumerate(shown)
        ]
    first = next(iter(layers.values())).first
    return document(first, theme, width, height, captions, clock.css(), "".join(body))


def picture(frames, entry) -> int:
    """Which picture an entry restyles: its graph's layout, a summary, or a chart."""
    if entry.graphs is not None:
        return id(frames.condensed(entry.graphs)[1])
    return id(frames.template(frames.graph_of_step(entry.step))[1])


def still_svg(tl, frame: str, k: int, theme, size, captions=True, note=None) -> str:
    """Step k's frame on the animation's canvas, with its caption (or `note`): one GIF frame."""
    width, height = size
    w, h = size_of(frame)
    tag = _SVG_TAG.search(frame)
    inner = _STYLE.sub("", frame[tag.end() : frame.rindex("</svg>")], count=1)
    body = _nested(f"step-{k}", ' class="layer"', (width - w) / 2, w, h, inner)
    if captions:
        body += _caption(tl, k, theme, width, height, None, note=note)
    return document(frame, theme, width, height, captions, "", body)


def document(frame: str, theme, width: float, height: float, captions, css: str, body) -> str:
    """The outer SVG: the frames' stylesheet, the timing rules, a background and `body`."""
    full = height + (_strip(theme, width) if captions else 0)
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


class Layer:
    """One layout, and every distinct look of each of its nodes and edges over time."""

    def __init__(self, number: int, first: str) -> None:
        self.number, self.first, self.size = number, first, size_of(first)
        self.steps = []  # positions in the animation
        self.looks = {}  # element id -> {(classes, body) -> steps showing that look}

    def add(self, k: int, frame: str) -> None:
        self.steps.append(k)
        for item, classes, body in _groups(frame):
            self.looks.setdefault(item, {}).setdefault((classes, body), []).append(k)

    def svg(self, clock: Clock, several: bool, width: float) -> str:
        """The layout as a nested <svg>, each element once per look, shown when it is worn."""
        last = self.steps[-1]

        def element(match) -> str:
            copies = []
            for (classes, body), shown in self.looks.get(match[1], {}).items():
                # Renderers without CSS animation show each graph's last frame.
                still = "" if last in shown else ' visibility="hidden"'
                copies.append(f'<g class="{classes}{clock.window(shown)}"{still}>{body}</g>')
            return f'<g id="{match[1]}">{"".join(copies)}</g>'

        tag = _SVG_TAG.search(self.first)
        inner = _GROUP.sub(element, self.first[tag.end() : self.first.rindex("</svg>")])
        inner = _STYLE.sub("", inner, count=1)
        attrs = ' class="layer"'
        if several:  # graph after graph: ids made unique per layer, layers shown in turn
            inner = re.sub(r'\bid="', f'id="g{self.number}-', inner)
            attrs = f' class="layer{clock.window(self.steps, "opacity", "1", "0")}"'
            attrs += "" if last == clock.n - 1 else ' opacity="0"'  # static: the last graph
        w, h = self.size
        return _nested(f"graph-{self.number}", attrs, (width - w) / 2, w, h, inner)


def _groups(svg: str):
    """(id, classes, body) of each node and edge shown: what _GROUP finds, four times faster
    (a frame of a 500-node graph is half a megabyte, read once per step)."""
    for chunk in svg.split('<g id="')[1:]:
        item, _, rest = chunk.partition('" class="')
        if rest[:5] not in ("node ", "edge "):
            continue  # the graph, a cluster: their text stays as laid out
        classes, _, rest = rest.partition('">')
        if "hidden" not in classes.split():
            yield item, classes, rest[: rest.index("</g>")]


def _type_scale(width: float) -> float:
    """Captions grow with wide pictures, which are shown shrunk to fit a page or slide."""
    return max(1.0, width / 1200)


def _strip(theme, width: float) -> float:
    return ((theme.font_size + theme.small_size) * 1.5 + 8) * _type_scale(width)


def _caption(tl, k: int, theme, width, top, clock: Clock | None, at=None, note=None) -> str:
    """Step number, phase banner and the step's caption (or `note`), under the picture; `at` is
    the step's place in the animation."""
    from ..tracing.explain import banner

    step = tl.steps[k]
    scale = _type_scale(width)
    big, small = theme.font_size * scale, theme.small_size * scale
    fits = int((width - 24 * scale) / (0.55 * small))  # Arial averages about 0.55 em per glyph
    text = note or step.caption
    caption = text if len(text) <= fits else text[: fits - 1] + "…"
    font = f'font-family="{FONT_FAMILY}" fill="{theme.text}"'
    classes, still = "", ""
    if clock is not None:
        classes = clock.window([at])
        still = "" if at == clock.n - 1 else ' visibility="hidden"'
    return (
        f'<g id="caption-{k}" class="caption{classes}"{still} '
        f'transform="translate({_num(12 * scale)} {_num(top + 4 * scale)})">'
        f'<text y="{_num(big * 1.2)}" font-size="{_num(big)}" font-weight="bold" {font}>'
        f"Step {k + 1} of {len(tl)} · {escape(banner(step))}</text>"
        f'<text y="{_num(big * 1.2 + small * 1.5)}" font-size="{_num(small)}" {font}>'
        f"{escape(caption)}</text></g>\n"
    )
