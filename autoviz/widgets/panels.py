"""HTML for the stepper's panels: banner, code, explanation, quiz feedback; all text escaped."""

from html import escape

from ..render.theme import FONT_FAMILY, Theme

# Panel type is scaled from the theme's node font, so the projector theme reads from the back.
_SCALE = 1.1


def stylesheet(theme: Theme, lines: int) -> str:
    """CSS for one theme and a code panel of `lines` lines, scoped by the stepper's classes."""
    scope = f".av-theme-{theme.name}"
    size = round(theme.font_size * _SCALE)
    lead = theme.kinds["leaf"]["border"]
    update = theme.kinds["module"]["border"]
    return f"""<style>
{scope} {{ font-size: {size}px; }}
{scope} .av-banner {{ font: bold {round(size * 1.25)}px {FONT_FAMILY}; padding: 0.35em 0.7em;
  border-radius: 6px; display: flex; justify-content: space-between; }}
{scope} .av-banner.av-forward {{ background: {lead}; color: {_text_on(lead)}; }}
{scope} .av-banner.av-backward {{ background: {theme.grad}; color: {_text_on(theme.grad)}; }}
{scope} .av-banner.av-update {{ background: {update}; color: {_text_on(update)}; }}
{scope} .av-banner.av-error {{ background: {theme.error[1]}; color: {_text_on(theme.error[1])}; }}
{scope} .av-banner .av-count {{ font-weight: normal; opacity: 0.9; }}
{scope} .av-frame {{ background: {theme.background}; overflow: auto; max-height: 75vh;
  border: 1px solid #ccc; border-radius: 6px; display: grid;
  grid-template-columns: max-content; contain: content; }}
{scope} .av-frame.av-fit {{ grid-template-columns: minmax(0, 1fr); }}
{scope} .av-frame > .av-layer {{ grid-area: 1 / 1; margin: 0; }}
{scope} .av-frame .widget-html-content {{ line-height: normal; }}
{scope} .av-frame.av-fit svg {{ max-width: 100%; height: auto; }}
{scope} .av-panel {{ background: {theme.background}; color: {theme.text};
  font-family: {FONT_FAMILY}; font-size: {size}px; line-height: 1.45; padding: 0.4em 0.7em;
  border: 1px solid #ccc; border-radius: 6px; min-height: 4em; }}
{scope} .av-panel h4 {{ margin: 0 0 0.3em 0; font-size: 0.8em; text-transform: uppercase;
  letter-spacing: 0.05em; opacity: 0.7; color: {theme.text}; }}
{scope} .av-code {{ max-height: 45vh; overflow: auto; }}
{scope} .av-code pre {{ margin: 0; padding: 0.05em 0.4em; font-size: 0.95em;
  white-space: pre-wrap; border-left: 4px solid transparent; background: none;
  color: {theme.text}; }}
{scope} .av-code .av-lineno {{ opacity: 0.5; margin-right: 0.8em; }}
{scope} .av-code .av-context {{ opacity: 0.6; }}
{scope} .av-code .av-label {{ font-weight: bold; opacity: 0.7; }}
{scope} .av-explain p {{ margin: 0.15em 0; }}
{scope} .av-explain .av-chain {{ font-family: monospace; font-size: 1.0em; }}
{scope} .av-question, {scope} .av-feedback {{ font-size: {size}px; line-height: 1.4;
  padding: 0.3em 0.7em; margin-top: 0.3em; border-radius: 6px; }}
{scope} .av-question {{ font-weight: bold; color: #1b1b1b; background: #fff3bf;
  border-left: 6px solid {theme.highlight}; }}
{scope} .av-feedback.av-right {{ color: #2b8a3e; font-weight: bold; }}
{scope} .av-feedback.av-wrong {{ color: #c92a2a; font-weight: bold; }}
{scope} .widget-button, {scope} .widget-readout, {scope} .widget-label,
{scope} .widget-text input {{ font-size: {max(13, round(size * 0.9))}px; }}
{_line_rules(theme, lines)}
</style>"""


def _text_on(background: str) -> str:
    """Black or white, whichever reads better on a #rrggbb background (WCAG luminance)."""
    if not (background.startswith("#") and len(background) == 7):
        return "white"
    channels = [int(background[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    # Contrast with white is 1.05 / (L + 0.05), with black (L + 0.05) / 0.05: equal at 0.179.
    return "white" if luminance < 0.179 else "#111111"


def _line_rules(theme: Theme, lines: int) -> str:
    """The current code line is picked by a class on the code panel (`av-at-3` marks line 3).

    Stepping then sends one class name, not the panel again.
    """
    rule = (
        f"border-left-color: {theme.highlight}; font-weight: bold; "
        f"background: color-mix(in srgb, {theme.highlight} 14%, transparent);"
    )
    return "\n".join(
        f".av-theme-{theme.name} .av-at-{i} pre.av-line-{i} {{ {rule} }}" for i in range(lines)
    )


def banner(text: str, phase: str, k: int, total: int) -> str:
    """The phase banner with the step counter."""
    return (
        f'<div class="av-banner av-{escape(phase)}"><span>{escape(text)}</span>'
        f'<span class="av-count">step {k} of {total - 1}</span></div>'
    )


def code_panel(lines) -> str:
    """The traced source lines, each in a classed row the stylesheet can highlight."""
    if not lines:
        return '<div class="av-panel av-code"><h4>Code</h4><i>no source lines recorded</i></div>'
    width = len(str(max(src.line or 0 for src in lines)))
    rows = "".join(
        f'<pre class="av-line-{i} av-{getattr(src, "role", "code")}">'
        f'<span class="av-lineno">{src.line or "":>{width}}</span>{escape(src.text)}</pre>'
        for i, src in enumerate(lines)
    )
    return f'<div class="av-panel av-code"><h4>Code</h4>{rows}</div>'


def explanation(step, text: str) -> str:
    """The step in words; chain-rule lines (one per edge) in a fixed-width font."""
    chain = step.kind == "backward" and bool(step.flows)
    css = ' class="av-chain"' if chain else ""
    body = "".join(f"<p{css}>{escape(line)}</p>" for line in text.splitlines())
    title = f"Step {step.index} · {escape(step.kind)}"
    return f'<div class="av-panel av-explain"><h4>{title}</h4>{body}</div>'


def question(prompt: str) -> str:
    """The quiz question asked before a step reveals a gradient."""
    return f'<div class="av-question">Quiz: {escape(prompt)}</div>'


def feedback(right: bool | None, sentence: str) -> str:
    """Right / wrong (or "not a number") after the learner answers."""
    if not sentence:
        return ""
    verdict = {True: "av-right", False: "av-wrong", None: ""}[right]
    return f'<div class="av-feedback {verdict}">{escape(sentence)}</div>'
