"""A Diagram: DOT source plus lazy SVG, saving to files and showing itself in Jupyter."""

from pathlib import Path

from .. import files
from ..errors import AutovizError
from .layout import check_timeout, engine_name, find_engine, run_layout, svg_layout

SUFFIXES = (".svg", ".png", ".pdf", ".dot", ".json")


class Diagram:
    """A drawn graph: `source` is the DOT text, `svg()` lays it out (once) and returns SVG."""

    def __init__(
        self, source: str, timeout: float | None = None, svg: str | None = None, graph=None
    ) -> None:
        self.source = source
        self._graph = graph  # the plain-data graph drawn (or a function making it), for .json
        self.timeout = check_timeout(timeout)
        self._svg = svg
        # A stepping frame's SVG is its layout restyled; DOT alone cannot redraw it.
        self.is_frame = svg is not None

    @property
    def graph(self):
        """The plain-data graph drawn; a frame's snapshot is made only when asked for."""
        if callable(self._graph):
            self._graph = self._graph()
        return self._graph

    def svg(self) -> str:
        """The laid-out diagram as SVG text (computed on first use)."""
        if self._svg is None:
            self._svg = svg_layout(self.source, self.timeout)
        return self._svg

    def png(self) -> bytes:
        """The diagram as PNG bytes; a frame is its own SVG rasterised, so nothing moves."""
        if self.is_frame or engine_name(find_engine()).startswith("graphviz-pure"):
            from .raster import svg_to_png

            # graphviz-pure's own PNG starts text where it measured it; the SVG centres it.
            return svg_to_png(self.svg(), self.timeout)
        return run_layout(self.source, "png", self.timeout)

    def save(self, path) -> Path:
        """Write the diagram to `path`; the suffix picks the format."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in SUFFIXES:
            raise ValueError(
                f"cannot save a diagram as {path.name!r}: unknown suffix {suffix or '(none)'!r} "
                f"(must be one of {list(SUFFIXES)})"
            )
        if suffix == ".dot":
            files.write_text(path, self.source)
        elif suffix == ".json":
            if self.graph is None:
                raise ValueError("this diagram was made from DOT text alone: it has no graph")
            from ..tracing.jsonio import graph_dumps

            files.write_text(path, graph_dumps(self.graph))
        elif suffix == ".svg":
            files.write_text(path, self.svg())
        elif suffix == ".png":
            files.write_bytes(path, self.png())
        elif self.is_frame:
            raise ValueError(
                f"cannot save a stepping frame as {suffix}: frames are the layout restyled per "
                "step; save it as .svg or .png (or .dot for its layout)"
            )
        else:
            files.write_bytes(path, run_layout(self.source, suffix[1:], self.timeout))
        return path

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        try:
            return {"image/svg+xml": self.svg()}
        except AutovizError as error:
            # Jupyter shows text instead of a traceback; the message says how to fix it.
            return {"text/plain": f"{error}\n\n{self.source}"}

    def __repr__(self) -> str:
        lines = self.source.count("\n")
        return f"<autoviz.Diagram: {lines} lines of DOT; .svg(), .save(path), .source>"
