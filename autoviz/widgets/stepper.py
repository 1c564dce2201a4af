"""autoviz.Stepper: the HTML player's front-end as a Jupyter widget (anywidget), stepping in
the browser."""

import dataclasses
import math

import anywidget
import traitlets

from ..errors import AutovizError
from ..export import frontend
from ..export.playerdata import build
from ..render import get_theme, make_options
from ..render.dot import RANKDIRS
from ..tracing.explain import banner, code_lines, explain
from ..tracing.quiz import QuizPlan, plan_of
from ..tracing.replay import ReplayError, nudge, nudged
from ..tracing.schema import short
from ..tracing.timeline import Timeline

# Traits whose change needs new frames from the renderer (the rest the browser handles).
_REDRAW = ("theme", "ghost", "options")


class Stepper(anywidget.AnyWidget):
    """Step through a Timeline with the HTML player's controls, camera, panels and quiz.

    The frames and each step's changes are sent once; stepping happens in the browser, which
    keeps the `step` trait in sync (set it from Python to move there; in quiz mode the player
    stops in front of a question not yet answered; `quiz` may be a plan of which to ask, as
    for `save_html`, and the trait then turns asking on and off). `follow` (the camera follows the
    step), `projector` and `rankdir` (None: the direction that fits the widget) are synced
    traits too; `theme`, `ghost` and the drawing `options` (precision, legend, op_label, …)
    redraw the frames when changed. Where widgets do not run (GitHub, nbviewer) the output
    is one still picture: the frame of the step shown when it was displayed.
    """

    _esm = traitlets.Unicode(frontend.module()).tag(sync=True)
    _css = traitlets.Unicode(frontend.stylesheet()).tag(sync=True)
    _data = traitlets.Dict().tag(sync=True)
    _svgs = traitlets.List().tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    quiz = traitlets.Bool(False).tag(sync=True)
    follow = traitlets.Bool(True).tag(sync=True)
    projector = traitlets.Bool(False).tag(sync=True)
    rankdir = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    theme = traitlets.Unicode("default").tag(sync=True)
    ghost = traitlets.Bool(False).tag(sync=True)
    options = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        tl,
        *,
        step: int = 0,
        quiz=False,
        theme: str = "default",
        ghost: bool = False,
        follow: bool = True,
        rankdir: str | None = None,
        timeout: float | None = None,
        **options,
    ):
        _check_arguments(tl, ghost, follow)
        plan = plan_of(quiz)
        self._plan = plan or QuizPlan()  # its questions are sent: the `quiz` trait asks or not
        self.tl, self.timeout = tl, timeout
        self._lines, self._line_of = code_lines(tl)
        self._frames = None
        self._building = True
        super().__init__(
            quiz=plan is not None,
            theme=theme,
            ghost=ghost,
            follow=follow,
            rankdir=rankdir,
            options=options,
            projector=get_theme(theme).name == "projector",
        )
        self._building = False
        self._redraw()  # bad options raise here, and every layout is made now, not at a click
        self.step = step
        self.on_msg(self._message)

    # --- traits ---------------------------------------------------------------------------

    @traitlets.validate("step")
    def _valid_step(self, proposal) -> int:
        return range(len(self.tl))[proposal["value"]]  # negative counts from the end, like tl[k]

    @traitlets.validate("theme")
    def _valid_theme(self, proposal) -> str:
        return get_theme(proposal["value"]).name

    @traitlets.validate("rankdir")
    def _valid_rankdir(self, proposal):
        value = proposal["value"]
        if value is not None and value not in RANKDIRS:
            raise ValueError(f"unknown rankdir {value!r} (must be one of {list(RANKDIRS)})")
        return value

    @traitlets.validate("options")
    def _valid_options(self, proposal) -> dict:
        options = dict(proposal["value"])
        if "rankdir" in options:
            raise ValueError("rankdir is a trait of its own: Stepper(tl, rankdir='TB')")
        make_options(**options)
        return options

    @traitlets.observe(*_REDRAW, "rankdir")
    def _changed(self, change) -> None:
        if self._building:
            return
        if change["name"] == "rankdir" and change["new"] in self._directions():
            return  # the browser has this direction's layout already
        self._redraw()

    def _directions(self) -> list:
        layouts = self._data.get("layouts") or [{}]
        return layouts[0].get("directions", [])

    def _redraw(self) -> None:
        """Lay out the timeline for the current options and send frames and changes, once."""
        bundle = build(
            self.tl,
            quiz=self._plan,
            theme=self.theme,
            ghost=self.ghost,
            rankdir=self.rankdir,
            timeout=self.timeout,
            progress=False,  # it would print under the widget, as an error-coloured stream
            **self.options,
        )
        self._frames = bundle.frames
        with self.hold_sync():
            self._svgs = bundle.svgs
            self._data = bundle.data

    def _message(self, _, content, buffers) -> None:
        """Every message from the player gets one reply: the nudge re-run or the iteration
        expanded, or an error saying what was wrong (the player shows it)."""
        self.send(message_reply(self, content))

    def nudge(self, name: str, h: float = 0.01, element: tuple = ()):
        """Raise leaf `name` (or its `element`) by h in the graph of the step shown and re-run
        the recorded graph: the output's actual change beside the one its gradient predicts
        (what the card's Nudge shows); see Timeline.nudge."""
        return nudged(self.tl, name, h, element, step=self.step)

    def expand(self, iteration: int) -> None:
        """Show iteration `iteration` (from 0) in full, step by step, and go to its first step:
        its frames are made now (the player's plot asks for this when a condensed one is
        clicked)."""
        its = self.tl.iterations
        chosen = its[iteration]  # IndexError for one the timeline does not have
        full = {its[i].number for i in self._data["iterations"]["full"]} | {chosen.number}
        self.options = {**self.options, "full_iterations": sorted(full)}
        self.step = chosen.steps[0]

    # --- what Python can read about the step shown -------------------------------------------

    @property
    def frame_svg(self) -> str:
        """The SVG of the frame at `step` (as the still picture shows it)."""
        svg = self._frames.svg(self.step, ghost=self.ghost)
        return svg[svg.index("<svg") :]

    @property
    def banner_text(self) -> str:
        return banner(self.tl.steps[self.step], self.tl)

    @property
    def explanation(self) -> str:
        """The explanation panel's text: the caption, or the chain rule one line per edge."""
        return explain(self.tl, self.step)

    @property
    def code_line(self):
        """The highlighted source line (file, line, text without its indentation), or None."""
        index = self._line_of[self.step]
        if index is None:
            return None
        row = self._lines[index]
        return dataclasses.replace(row, text=row.text.strip())

    @property
    def counter(self) -> str:
        """ "step k of N", as the player shows it (k counts from 1)."""
        return f"step {self.step + 1} of {len(self.tl)}"

    def _repr_mimebundle_(self, **kwargs):
        """The widget, and for viewers without widgets one still picture: the frame shown."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["image/svg+xml"] = self.frame_svg
        data["text/plain"] = f"autoviz.Stepper: {self.counter} — {self.banner_text}"
        return bundle


MESSAGES = ("nudge", "expand")  # what the player asks the kernel


def message_reply(stepper, content) -> dict:
    """The reply to one message of the player: {"kind": "nudged" | "expanded" | "error", ...},
    with "error" saying what was wrong when the message cannot be done."""
    kind = content.get("kind") if isinstance(content, dict) else None
    if kind == "nudge":
        key = content.get("id")
        if not _sendable_id(key):  # the reply could not carry it back (NaN, 10**400, ...)
            return {
                "kind": "nudged",
                "id": None,
                "error": f"a nudge's id {short(key)} is not "
                "one the page can match: a string or a number of at most 15 digits",
            }
        return {"kind": "nudged", "id": key, **nudge_reply(stepper.tl, content)}
    if kind == "expand":
        return {"kind": "expanded", **expand_reply(stepper, content.get("iteration"))}
    what = f"kind {short(kind)}" if isinstance(content, dict) else f"a {type(content).__name__}"
    return {
        "kind": "error",
        "error": f"the widget cannot answer a message of {what}: it answers {list(MESSAGES)}",
    }


def expand_reply(stepper, iteration) -> dict:
    """{"iteration": i, "step": its first step} once shown in full, or {"error": why not}."""
    count = len(stepper.tl.iterations)
    if not _index(iteration):
        return {"error": f"expand names an iteration by its number, not {short(iteration)}"}
    if not 0 <= iteration < count:
        has = f"{count} (0 to {count - 1})" if count else "none: it is not a loop"
        return {"iteration": iteration, "error": f"no iteration {iteration}: the run has {has}"}
    try:
        stepper.expand(iteration)
    except (AutovizError, OSError, ValueError) as error:  # its frames could not be drawn
        return {"iteration": iteration, "error": f"iteration {iteration + 1}: {error}"}
    return {"iteration": iteration, "step": stepper.step}


def nudge_reply(tl, content: dict) -> dict:
    """{"result": ...} of re-running the graph as `content` asks, or {"error": why not}."""
    try:
        graph, node, h = content.get("graph"), content.get("node"), content.get("h")
        element = content.get("element") or []
        if not _index(graph) or not isinstance(node, str) or len(node) > 40:
            raise ReplayError("a nudge names a graph (a number) and a node id")
        if not isinstance(element, list) or not all(_index(i) for i in element):
            raise ReplayError("a nudge's element is a list of indices")
        result = nudge(tl, graph, node, h, tuple(element))
    except ReplayError as error:
        return {"error": str(error)}
    finite = all(math.isfinite(v) for v in (result["before"], result["after"]))
    return {"result": result} if finite else {"error": "the re-run output is not finite"}


def _index(value) -> bool:
    """An index a message may carry: an int (not a bool) that an array index holds."""
    return isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63


def _sendable_id(value) -> bool:
    """An id the reply can carry back for the page to match (JavaScript reads it alike)."""
    if isinstance(value, str):
        return len(value) <= 100
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or (_index(value) and abs(value) < 2**53)


def _check_arguments(tl, ghost, follow) -> None:
    if not isinstance(tl, Timeline):
        raise TypeError(
            f"Stepper() expects a Timeline (`with autoviz.trace() as tl: ...`), "
            f"not {type(tl).__name__}"
        )
    if not tl.steps:
        raise ValueError("this timeline has no steps: nothing was recorded in the block")
    for name, value in (("ghost", ghost), ("follow", follow)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False, not {value!r}")
