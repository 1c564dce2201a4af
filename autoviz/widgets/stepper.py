"""autoviz.Stepper: step through a Timeline in Jupyter, with the code and the chain rule beside."""

import itertools
import re

import ipywidgets as widgets

from ..render import get_theme, make_options
from ..render.frames import Frames
from ..tracing.explain import banner, code_lines, explain
from ..tracing.timeline import Timeline
from . import layers, panels
from .callbacks import shown_in
from .quiz import Quiz

PER_LAYER = 40  # node and edge groups per frame layer (see layers.py)
# px at the default theme's 14 pt type: drawings up to this wide shrink to fit the notebook,
# wider ones scroll at full size (their text would be too small); larger type may shrink more.
FIT_WIDTH = 1600
# Graphviz's comments and <title>s (node ids as tooltips) are 6% of a frame and tell a
# learner nothing: they are left out of what is sent.
_TRIM = re.compile(r"<!--.*?-->\n?|<title>[^<]*</title>\n?")
_SCOPES = itertools.count(1)  # each stepper's frame styles only its own layers
_WIDTH = re.compile(r'<svg[^>]*?\swidth="([\d.]+)(pt|px)?"')


class Stepper(widgets.VBox):
    """The frame of the current step with Play, a step slider, ◀ ▶, jumps, banner and panels.

    `Stepper(tl)` shows step 0 of timeline `tl`; `quiz=True` asks for each scalar gradient
    before revealing it. `theme`, `ghost` and the drawing options (rankdir, op_label,
    precision, show_values, show_grads, legend, timeout) go to the renderer and are checked
    here. State for code and tests: `step` (settable), `frame_svg`, `banner_text`,
    `explanation`, `code_line`, `question`, and the widgets `slider`, `play`, `speed`,
    `prev_button`, `next_button`, `backward_button`, `end_button`, `answer`, `check_button`,
    `output` (where errors raised while stepping are shown).
    """

    def __init__(self, tl, *, quiz=False, theme="default", ghost=False, **options):
        _check_arguments(tl, quiz, ghost)
        self.tl, self.theme, self.ghost, self.options = tl, theme, ghost, options
        timeout = options.pop("timeout", None)
        # Bad theme or options raise here, and the first layout is made now, not at a click.
        self.frames = Frames(tl, get_theme(theme), make_options(**options), timeout)
        first = self._frame_svg(0)
        self.quiz = Quiz(tl, quiz)
        self._lines, self._line_of = code_lines(tl)
        self._step, self._texts = 0, {}
        self._build_widgets(get_theme(theme))
        super().__init__(self._layout_children())
        self.add_class("autoviz-stepper")
        self.add_class(f"av-theme-{get_theme(theme).name}")
        self._wire()
        self._render(0, first)

    # --- public state -----------------------------------------------------------------------

    @property
    def step(self) -> int:
        """The step shown; setting it moves there (in quiz mode, stopping at a question)."""
        return self._step

    @step.setter
    def step(self, k: int) -> None:
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"step must be an int, not {type(k).__name__}")
        self._request(range(len(self.tl))[k])  # negative counts from the end, like tl[k]

    @property
    def frame_svg(self) -> str:
        """The SVG of the frame shown (whole; the browser gets it as stacked `layers`)."""
        return self._svg

    @property
    def banner_text(self) -> str:
        return self._texts["banner"]

    @property
    def explanation(self) -> str:
        """The explanation panel's text: the caption, or the chain rule one line per edge."""
        return self._texts["explanation"]

    @property
    def code_line(self):
        """The highlighted source line (file, line, text), or None."""
        index = self._line_of[self._step]
        return None if index is None else self._lines[index]

    @property
    def question(self):
        """The quiz question being asked (a `Question`), or None."""
        return None if self.quiz.pending is None else self.quiz.questions[self.quiz.pending]

    @property
    def feedback(self) -> str:
        """What the quiz said about the last answer ("" when nothing to say)."""
        return self._texts.get("feedback", "")

    def backward_start(self) -> int | None:
        """The seed step of the current graph's backward pass (else the next one), or None."""
        seeds = [s.index for s in self.tl.steps if s.kind == "seed"]
        graph = self.tl.steps[self._step].details.get("graph", 0)
        same = [k for k in seeds if self.tl.steps[k].details.get("graph", 0) == graph]
        later = [k for k in seeds if k > self._step]
        return (same or later or [None])[0]

    # --- building ---------------------------------------------------------------------------

    def _build_widgets(self, theme) -> None:
        last = len(self.tl) - 1
        self.css = widgets.HTML(panels.stylesheet(theme, len(self._lines)))
        self.banner = widgets.HTML()
        self.play = widgets.Play(min=0, max=last, interval=1000, show_repeat=False)
        self.speed = widgets.IntSlider(
            1000, min=100, max=3000, step=100, description="ms / step", readout=True
        )
        self.slider = widgets.IntSlider(0, min=0, max=last, description="step")
        self.prev_button = _button("◀", "previous step (back)")
        self.next_button = _button("▶", "next step")
        self.backward_button = _button("start of backward", "jump to the first backward step")
        self.end_button = _button("end", "jump to the last step")
        self.frame = widgets.Box(layout=widgets.Layout(width="100%"))
        self.frame.add_class("av-frame")
        self._scope = f"av-s{next(_SCOPES)}"
        self.frame.add_class(self._scope)
        self.layers = []  # HTML widgets stacked in `frame`, one per layer of the SVG
        self.code = widgets.HTML(panels.code_panel(self._lines))
        self.explanation_view = widgets.HTML()
        self.question_view = widgets.HTML()
        self.answer = widgets.Text(placeholder="type a number, then Enter", continuous_update=False)
        self.check_button = _button("check", "check my answer")
        self.feedback_view = widgets.HTML()
        self.output = widgets.Output()
        self.quiz_box = widgets.VBox(
            [self.question_view, widgets.HBox([self.answer, self.check_button])],
            layout=widgets.Layout(display="none"),
        )
        self._sizes()

    def _sizes(self) -> None:
        for button in (self.prev_button, self.next_button):
            button.layout.width = "3.5em"
        for button in (self.backward_button, self.end_button, self.check_button):
            button.layout.width = "auto"
        self.play.layout.width = "7em"
        self.slider.layout = widgets.Layout(flex="1 1 auto", min_width="14em")
        self.speed.layout = widgets.Layout(width="17em")
        self.speed.style.description_width = "5em"
        self.slider.style.description_width = "3em"

    def _layout_children(self) -> list:
        controls = widgets.HBox(
            [
                self.play,
                self.prev_button,
                self.slider,
                self.next_button,
                self.backward_button,
                self.end_button,
                self.speed,
            ],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        side = widgets.VBox(
            [self.explanation_view, self.quiz_box, self.feedback_view],
            layout=widgets.Layout(flex="1 1 28em", min_width="18em"),
        )
        self.code.layout = widgets.Layout(flex="1 1 22em", min_width="16em")
        below = widgets.HBox([self.code, side], layout=widgets.Layout(flex_flow="row wrap"))
        return [self.css, self.banner, controls, self.frame, below, self.output]

    def _wire(self) -> None:
        # Play runs in the browser and drives the slider there; the kernel listens to the
        # slider alone and sets only the slider. Were it to set Play too, a value of Play still
        # in flight would come back and step the picture backwards.
        self._links = [
            widgets.jslink((self.play, "value"), (self.slider, "value")),
            widgets.jslink((self.speed, "value"), (self.play, "interval")),
        ]
        self.slider.observe(self._on_value, names="value")
        self.prev_button.on_click(self._on_prev)
        self.next_button.on_click(self._on_next)
        self.backward_button.on_click(self._on_backward)
        self.end_button.on_click(self._on_end)
        self.answer.observe(self._on_answer, names="value")
        self.check_button.on_click(self._on_check)

    # --- callbacks (errors go to self.output) -----------------------------------------------

    @shown_in("output")
    def _on_value(self, change) -> None:
        self._request(change["new"])

    @shown_in("output")
    def _on_prev(self, _button) -> None:
        self._request(max(self._step - 1, 0))

    @shown_in("output")
    def _on_next(self, _button) -> None:
        self._request(min(self._step + 1, len(self.tl) - 1))

    @shown_in("output")
    def _on_backward(self, _button) -> None:
        start = self.backward_start()
        if start is not None:
            self._request(start)

    @shown_in("output")
    def _on_end(self, _button) -> None:
        self._request(len(self.tl) - 1)

    @shown_in("output")
    def _on_answer(self, change) -> None:
        self._submit(change["new"])

    @shown_in("output")
    def _on_check(self, _button) -> None:
        self._submit(self.answer.value)

    # --- stepping ---------------------------------------------------------------------------

    def _request(self, k: int) -> None:
        """Move to step k; in quiz mode moving forward stops before an unanswered question."""
        if k == self._step:
            return
        asked = self.quiz.first_unanswered(self._step, k) if k > self._step else None
        if asked is not None:
            self._ask(asked)
            return
        self._close_question()
        self._set_feedback(None, "")
        self._move(k)

    def _move(self, k: int) -> None:
        try:
            svg = self._frame_svg(k)
        except Exception:
            self._sync_controls()  # the slider snaps back to the step still shown
            raise
        self._render(k, svg)

    def _render(self, k: int, svg: str) -> None:
        """Show step k: only widget values that change are sent to the browser."""
        step, last = self.tl.steps[k], len(self.tl) - 1
        self._step = k
        self._show_frame(svg)
        self._texts["banner"] = banner(step, self.tl)
        self.banner.value = panels.banner(self._texts["banner"], step.phase, k, len(self.tl))
        self._texts["explanation"] = explain(self.tl, k)
        self.explanation_view.value = panels.explanation(step, self._texts["explanation"])
        line = self._line_of[k]
        self.code._dom_classes = () if line is None else (f"av-at-{line}",)
        self.prev_button.disabled = k == 0
        self.next_button.disabled = self.end_button.disabled = k == last
        self.backward_button.disabled = self.backward_start() in (None, k)
        self._sync_controls()

    def _sync_controls(self) -> None:
        self.slider.value = self._step

    def _frame_svg(self, k: int) -> str:
        """Frame k restyled from its graph's one layout, as inline SVG without the prolog."""
        svg = self.frames.svg(k, ghost=self.ghost)
        return svg[svg.index("<svg") :]

    def _show_frame(self, svg: str) -> None:
        """Send the layers that differ from those shown (traitlets sends only changed values)."""
        self._svg = svg
        parts = layers.split(svg, PER_LAYER)
        if len(parts) != len(self.layers):  # the first frame, or a graph of another size
            self.layers = [widgets.HTML(self._layer(i, part)) for i, part in enumerate(parts)]
            for view in self.layers:
                view.add_class("av-layer")
            self.frame.children = self.layers
        else:
            for i, part in enumerate(parts):
                if part != self._parts[i]:
                    self.layers[i].value = self._layer(i, part)
        self._parts = parts
        self._fit(svg)

    def _layer(self, i: int, part: str) -> str:
        """What layer i sends: trimmed, its stylesheet (layer 0) scoped to this stepper."""
        part = _TRIM.sub("", part)
        return layers.scope_styles(part, f".{self._scope}") if i == 0 else part

    def _fit(self, svg: str) -> None:
        """Small drawings shrink to the notebook's width; big ones scroll at full size."""
        match = _WIDTH.search(svg)
        width = float(match.group(1)) * (4 / 3 if match.group(2) != "px" else 1) if match else 0
        limit = FIT_WIDTH * get_theme(self.theme).font_size / 14
        fit = ("av-fit",) if width <= limit else ()
        classes = ("av-frame", self._scope, *fit)
        if tuple(self.frame._dom_classes) != classes:
            self.frame._dom_classes = classes

    # --- quiz ---------------------------------------------------------------------------------

    def _ask(self, k: int) -> None:
        """Hold at step k - 1 and ask the question of step k."""
        self.play.playing = False
        if self.quiz.pending == k:
            self._sync_controls()
            return
        self.quiz.pending = k
        if self._step != k - 1:
            self._move(k - 1)
        else:
            self._sync_controls()
        self.question_view.value = panels.question(self.quiz.questions[k].prompt)
        self._set_feedback(None, "")
        self.answer.value = ""
        self.quiz_box.layout.display = "flex"
        self.answer.focus()

    def _submit(self, text: str) -> None:
        if self.quiz.pending is None or not str(text).strip():
            return
        revealed = self.quiz.pending
        right, sentence = self.quiz.answer(text)
        self._set_feedback(right, sentence)
        if right is None:
            return  # not a number: the question stays
        self._close_question()
        self._move(revealed)

    def _close_question(self) -> None:
        self.quiz.pending = None
        self.quiz_box.layout.display = "none"

    def _set_feedback(self, right, sentence: str) -> None:
        self._texts["feedback"] = sentence
        self.feedback_view.value = panels.feedback(right, sentence)


def _button(text: str, tooltip: str) -> widgets.Button:
    return widgets.Button(description=text, tooltip=tooltip)


def _check_arguments(tl, quiz, ghost) -> None:
    if not isinstance(tl, Timeline):
        raise TypeError(
            f"Stepper() expects a Timeline (`with autoviz.trace() as tl: ...`), "
            f"not {type(tl).__name__}"
        )
    if not tl.steps:
        raise ValueError("this timeline has no steps: nothing was recorded in the block")
    for name, value in (("quiz", quiz), ("ghost", ghost)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False, not {value!r}")
