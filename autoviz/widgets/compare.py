"""autoviz.compare(tl_a, tl_b): two timelines side by side, stepping together, as a Jupyter
widget and as one HTML page."""

import re
from pathlib import Path

import anywidget
import traitlets

from .. import files
from ..export import frontend
from ..export.html import SUFFIXES, embed_json, layouts_html, page_html
from ..export.playerdata import build
from ..render.labels import escape, visible
from ..tracing.schema import short
from ..tracing.timeline import Timeline
from .refusals import RefusedValue, Replies, step_of

_SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)pt"[^>]*?\sheight="([\d.]+)pt"')


class Comparison(Replies, anywidget.AnyWidget):
    """Two players, each stepping as the Stepper does; a step in one moves the other to the
    same step, or, when the timelines differ in length, to the same place in the same phase
    of the same iteration. `steps` (a synced trait) holds where each one is; `step` is where
    both start (-1: their last steps)."""

    _esm = traitlets.Unicode(frontend.module()).tag(sync=True)
    _css = traitlets.Unicode(frontend.stylesheet()).tag(sync=True)
    _pair = traitlets.List().tag(sync=True)
    _pair_svgs = traitlets.List().tag(sync=True)
    labels = traitlets.List().tag(sync=True)
    steps = traitlets.List([0, 0]).tag(sync=True)

    def __init__(
        self, tl_a, tl_b, *, labels=("a", "b"), step=0, theme="default", timeout=None, **options
    ):
        for tl in (tl_a, tl_b):
            if not isinstance(tl, Timeline):
                raise TypeError(
                    "compare() expects two Timelines (`with autoviz.trace() as tl: ...`), "
                    f"not {type(tl).__name__}"
                )
        labels = list(labels) if isinstance(labels, list | tuple) else labels
        if not isinstance(labels, list) or len(labels) != 2:
            raise ValueError(f"labels must be two names, such as ('tanh', 'relu'), got {labels!r}")
        self.timelines = (tl_a, tl_b)
        # No progress bar: it would print under the widget, as an error-coloured stream.
        self._bundles = [
            build(tl, theme=theme, timeout=timeout, progress=False, **options)
            for tl in (tl_a, tl_b)
        ]
        super().__init__(
            _pair=[b.data for b in self._bundles],
            _pair_svgs=[b.svgs for b in self._bundles],
            labels=[visible(label) for label in labels],  # shown as text, invisibles spelled out
        )
        # Both start at `step` of their own (negative counts from the end, as in tl[k]).
        self.steps = [step, step]

    @traitlets.validate("steps")
    def _valid_steps(self, proposal) -> list:
        steps = list(proposal["value"])
        if len(steps) != 2:
            raise RefusedValue(f"steps holds two step numbers, got {short(steps)}")
        return [step_of(len(tl), k) for tl, k in zip(self.timelines, steps, strict=True)]

    def save_html(self, path) -> Path:
        """Write both players as one self-contained page (works offline); returns the path."""
        path = Path(path)
        if path.suffix.lower() not in SUFFIXES:
            raise ValueError(
                f"cannot save the comparison as {path.name!r}: unknown suffix "
                f"{path.suffix or '(none)'!r} (must be one of {list(SUFFIXES)})"
            )
        return files.write_text(path, self.page())

    def page(self) -> str:
        """The comparison as HTML text."""
        script = frontend.module(compact=True) + "\nstartComparePage();\n"
        title = escape(f"autoviz — {self.labels[0]} and {self.labels[1]} compared")
        pair = embed_json({"labels": self.labels, "steps": self.steps})
        layouts = [
            f'<div id="av-layouts-{side}" hidden>\n{layouts_html(bundle)}\n</div>'
            for side, bundle in enumerate(self._bundles)
        ]
        data = [
            f'<script type="application/json" id="av-data-{side}">{embed_json(b.data)}</script>'
            for side, b in enumerate(self._bundles)
        ]
        pair_data = f'<script type="application/json" id="av-pair">{pair}</script>'
        payload = "\n".join([*layouts, pair_data, *data])
        root = '<div id="av-root"></div>'
        return page_html(title, script, root, payload, "av-page av-compare-page")

    def _repr_mimebundle_(self, **kwargs):
        """The widget, and for viewers without widgets the two frames shown, side by side."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["image/svg+xml"] = self.still_svg()
        data["text/plain"] = f"autoviz.Comparison: {self.labels[0]} and {self.labels[1]}"
        return bundle

    def still_svg(self) -> str:
        """Both frames at `steps`, each under its label, as one SVG."""
        pieces, x, height = [], 0.0, 0.0
        for label, bundle, k in zip(self.labels, self._bundles, self.steps, strict=True):
            svg = bundle.frames.svg(k)
            svg = svg[svg.index("<svg") :]
            match = _SIZE.search(svg)
            w, h = (float(match.group(1)), float(match.group(2))) if match else (400.0, 300.0)
            # In the outer picture's units (1 = 1 pt): a nested "pt" would be scaled twice.
            nested = _SIZE.sub(
                lambda m: (
                    m.group(0)
                    .replace(f'"{m.group(1)}pt"', f'"{m.group(1)}"', 1)
                    .replace(f'"{m.group(2)}pt"', f'"{m.group(2)}"', 1)
                ),
                svg,
                count=1,
            ).replace("<svg", f'<svg x="{x}" y="24"', 1)
            pieces.append(
                f'<text x="{x + 4}" y="16" font-family="sans-serif" font-size="14" '
                f'font-weight="bold">{escape(label)}</text>{nested}'
            )
            x, height = x + w + 16, max(height, h + 24)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{x}pt" height="{height}pt" '
            f'viewBox="0 0 {x} {height}">' + "".join(pieces) + "</svg>"
        )
