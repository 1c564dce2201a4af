"""A Timeline: one graph plus the ordered steps that built it and flowed gradients through it."""

from ..collector import collector_paused
from .model import PERSISTENT as PERSISTENT  # where the builder finds it
from .model import Edge, Graph, Node, Step


class Timeline:
    """What a traced program did: nodes, edges and steps; `tl[k]` is the graph after step k."""

    def __init__(self, nodes: list[Node], edges: list[Edge], steps: list[Step]) -> None:
        self._nodes, self._edges, self._steps = nodes, edges, steps
        self._pending = None  # builder.Recorded: the recorder's log until a view needs the steps
        self.skipped = {}  # thread name -> events of other threads a tracer did not record
        self._code = []  # the traced code as written (source.CodeText), recorded when tracing
        self._block = None  # the traced `with` block (source.Block), until the code is recorded

    def _lists(self) -> tuple:
        return self._nodes, self._edges, self._steps, self._code

    def _built(self) -> "Timeline":
        if self._pending is not None:
            pending, self._pending = self._pending, None
            with collector_paused():
                pending.build(self)
        return self

    @property
    def nodes(self) -> list[Node]:
        return self._built()._nodes

    @property
    def edges(self) -> list[Edge]:
        return self._built()._edges

    @property
    def steps(self) -> list[Step]:
        return self._built()._steps

    @property
    def code(self) -> list:
        """The traced code as written: each file's recorded lines (tracing/source.py)."""
        return self._built()._code

    def __len__(self) -> int:
        """The number of steps; of a timeline not built yet, counted from its log without
        building it (builder.Recorded)."""
        if self._pending is not None:
            with collector_paused():
                return self._pending.count()
        return len(self._steps)

    @property
    def iterations(self) -> list:
        """Each graph (a training loop's iteration) at a glance: its steps, the loss its
        backward started from, and each leaf's value after it (see tracing/iterations.py)."""
        from .iterations import iterations

        return iterations(self)

    def __iter__(self):
        self._built()
        return (self[k] for k in range(len(self)))

    def __getitem__(self, k: int) -> Graph:
        """The graph as it stood after step k (negative k counts from the end); of a timeline
        not built yet, only the graphs up to step k's are built (builder.Recorded.prefix)."""
        k = self._step_index(k)
        if self._pending is not None:
            with collector_paused():
                return snapshot(self._pending.prefix(self, k), k)
        return snapshot(self, k)

    def _step_index(self, k: int) -> int:
        """k as a step number from 0; a bad k raises what indexing a list would."""
        if not isinstance(k, int):
            raise TypeError(f"timeline steps are indexed by int, not {type(k).__name__}")
        if not -len(self) <= k < len(self):
            raise IndexError(f"step {k} out of range: this timeline has {len(self)} steps")
        return k % len(self)

    def __repr__(self) -> str:
        phases = [s.phase for s in self.steps]
        skipped = sum(self.skipped.values())
        other = f", {skipped:,} events of other threads not recorded" if skipped else ""
        return (
            f"<autoviz.Timeline: {len(self)} steps ({phases.count('forward')} forward, "
            f"{phases.count('backward')} backward), {len(self.nodes)} nodes{other}>"
        )

    def draw(self, step: int = -1, *, theme: str = "default", timeout=None, **options):
        """The frame after `step` (default: the last) as a Diagram.

        Each graph of the timeline is laid out once; frames restyle that layout, so nodes keep
        their places from step to step. `ghost=True` shows nodes not yet made faintly.
        """
        from ..render import draw_frame

        if not self.steps:
            raise ValueError("this timeline has no steps: nothing was recorded in the block")
        self._step_index(step)  # the same checks and messages as indexing
        return draw_frame(self, step, theme, timeout, **options)

    def save_frames(self, directory, format: str = "svg", *, theme: str = "default", **options):
        """Write one numbered image per step into `directory` (for slides); returns the paths."""
        from ..export import save_frames

        return save_frames(self, directory, format, theme, **options)

    def save_html(
        self, path, *, quiz=False, theme: str = "default", ghost: bool = False, **options
    ):
        """Write a self-contained HTML player for the timeline (works offline); returns the path.

        Step with ← → Home End and Space (play); `quiz=True` asks the learner to predict
        before a step reveals it (shapes, gradient elements, which tensors get a .grad, …);
        `quiz={"count": 6, "kinds": ["shape", "element"], "every": 3}` asks fewer (see
        Timeline.questions). Options are the renderer's (`rankdir`, `precision`, …).
        """
        from ..export import save_html

        return save_html(self, path, quiz=quiz, theme=theme, ghost=ghost, **options)

    def questions(self, quiz=True) -> dict:
        """{step: Question}: what the player asks before each step, as `save_html(quiz=...)`
        asks it (True: every question; a dict such as {"count": 6, "kinds": ["shape"],
        "every": 2}). Each Question has its prompt, answer, hint and `check(guess)`."""
        from .quiz import questions

        return questions(self, quiz)

    def add_question(self, step: int, prompt: str, answer, *, hint=None, why=None, choices=None):
        """Ask your own question before `step` shows, whatever the quiz's plan: `answer` is a
        number, a shape (a tuple), text, one of `choices` or a list of several; `hint` is said
        after a first wrong try, `why` with the answer. Saved with the timeline's JSON."""
        from .quiz import add_question

        return add_question(self, step, prompt, answer, hint=hint, why=why, choices=choices)

    def save_handout(self, path, *, quiz=None, pdf=None, theme: str = "default", **options):
        """Write a printable worksheet (.html, or .pdf): each question beside a still picture
        of the graph when it is asked, the answers on a page of their own; with an .html path,
        the PDF beside it where Chromium, WeasyPrint or wkhtmltopdf is installed (`pdf=True`:
        it must be; False: never). `quiz` as for save_html (default: 8 questions). Returns the
        paths written."""
        from ..export.handout import save_handout

        return save_handout(self, path, quiz=quiz, pdf=pdf, theme=theme, **options)

    def save_animation(
        self, path, *, theme: str = "default", seconds_per_step: float = 1.0, **options
    ):
        """Write the whole timeline as one looping animation; the suffix picks the format.

        `.svg`: one layout per graph animated with CSS keyframes (no script), for READMEs and
        slides; `.gif`: one frame per step (needs Pillow). `captions=False` leaves out the
        step, phase and caption written under the picture. Returns the path.
        """
        from ..export.animation import save_animation

        return save_animation(self, path, theme, seconds_per_step, **options)

    def nudge(self, name: str, h: float = 0.01, element: tuple = (), step: int = -1):
        """Raise leaf `name` (or one `element` of it) by h in the graph of `step` and re-run
        the recorded graph: the output's change its gradient predicts (∂z/∂w × h) beside the
        actual one. A gradient is a slope: the two agree more closely the smaller h is."""
        from .replay import nudged

        return nudged(self, name, h, element, step)

    def to_json(self) -> str:
        """The timeline as JSON text in the documented `autoviz-timeline` format."""
        from .jsonio import dumps

        return dumps(self)

    @classmethod
    def from_json(cls, text: str) -> "Timeline":
        """Load JSON written by `to_json`; malformed input raises TimelineFormatError."""
        from .jsonio import loads

        return loads(text)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return self.draw()._repr_mimebundle_(include, exclude)


def snapshot(tl: Timeline, k: int) -> Graph:
    """The graph of step k as it stood after it: its nodes made so far, their changes applied.

    Only that graph's part of the timeline is read (see index.py), so a snapshot costs the size
    of its graph, however long the timeline.
    """
    from .index import index_of

    index = index_of(tl)
    part = index.graph(index.graph_of_step[k])
    visible = {n.id: index.state(n, k) for n in part.nodes if n.step <= k}
    edges = [tl.edges[i] for i in part.edges]
    return Graph(
        nodes=list(visible.values()),
        edges=[e for e in edges if e.source in visible and e.target in visible],
        backward_ran=part.first_backward is not None and part.first_backward <= k,
        current=[i for i in tl.steps[k].nodes if i in visible],
        step=tl.steps[k],
    )
