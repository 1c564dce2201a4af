"""The `autoviz` command: classroom demos and exports from the shell."""

import argparse
import contextlib
import gc
import os
import re
import runpy
import shlex
import sys
from pathlib import Path

from . import __version__, files
from .errors import AutovizError, GraphTooLarge, LayoutError

DRAWING_ERRORS = (GraphTooLarge, LayoutError)  # their advice names the API's options


def main(argv: list[str] | None = None, exiting: bool = False) -> int:
    """Run the command line; returns the exit code (0 on success). `exiting`: the process ends
    after it (the `autoviz` program), which then clears the script's globals."""
    parser = _parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    script_args = []
    if "--" in argv:  # the script's own command line: autoviz html s.py -o a.html -- -n 3
        cut = argv.index("--")
        argv, script_args = argv[:cut], argv[cut + 1 :]
    args = parser.parse_args(_bare_quiz(argv))
    args.script_args, args.exiting = script_args, exiting
    if args.command is None:
        parser.print_help()
        return 0
    if isinstance(getattr(args, "output", None), Path):  # where meant, whatever the script's chdir
        args.output = Path(os.path.abspath(args.output))
    try:
        return args.run(args)
    except KeyboardInterrupt:
        _say("autoviz: interrupted", sys.stderr)
        return 130
    except (AutovizError, OSError, ValueError, ImportError) as error:
        # ImportError: an optional dependency is missing (Pillow for GIFs); the message says
        # which extra to install. The user's own script reports its errors in runscript.
        said = _as_flags(str(error)) if isinstance(error, DRAWING_ERRORS) else error
        _say(f"autoviz: error: {said}", sys.stderr)
        return getattr(error, "exit_code", 1)  # a script's sys.exit(3) ends autoviz with 3


# What `--quiz`'s optional PLAN looks like: anything else after it (the script) is not one.
_PLAN = re.compile(r"(all|[0-9]+|(count|kinds|every)=[^ ]*)(,[^ ]*)?")


def _bare_quiz(argv: list) -> list:
    """`--quiz lesson.py`: a bare --quiz followed by the script, not a plan called lesson.py."""
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg == "--quiz" and not _PLAN.fullmatch(out[i + 1]):
            out[i] = "--quiz="
    return out


def _say(text: str, stream=None, end: str = "\n") -> None:
    """Print a line of the command's own, unless the script closed the stream (as `python
    script.py` would print nothing more there): that never fails a run."""
    stream = sys.stdout if stream is None else stream
    with contextlib.suppress(ValueError, OSError, AttributeError):  # closed, or no stream
        stream.write(text + end)
        stream.flush()


def console() -> int:
    """The `autoviz` program: main(), then an exit that leaves the run's objects to the OS."""
    code = main(exiting=True)
    # Python's exit would walk every object torch, the script and its timeline made, looking
    # for cycles to free (1.3 s after a 2,000-iteration loop), though the process ends. The
    # script's globals are still cleared at exit (run_script's `exiting`): what it left open
    # is flushed and closed, as after `python script.py`.
    gc.freeze()
    return code


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autoviz",
        description="See reverse-mode automatic differentiation: draw PyTorch-style graphs.",
    )
    parser.add_argument("--version", action="version", version=f"autoviz {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser(
        "demo", help="run the lesson example z = w * x + b and draw its graph"
    )
    demo.add_argument(
        "--out",
        default="autoviz-demo",
        type=Path,
        metavar="DIR",
        help="folder for graph.svg and graph.dot (default: ./autoviz-demo)",
    )
    demo.set_defaults(run=_demo)
    html = _script_command(commands, "html", _html, "write the step-by-step HTML player")
    html.add_argument(
        "-o", "--output", required=True, type=Path, metavar="FILE.html", help="the page to write"
    )
    _player_options(html)
    present = _script_command(
        commands, "present", _present, "write the player to a temporary file and open a browser"
    )
    _player_options(present)
    frames = _script_command(commands, "frames", _frames, "write one image per step (slides)")
    frames.add_argument(
        "-o", "--output", required=True, type=Path, metavar="DIR", help="the folder to write into"
    )
    frames.add_argument(
        "--format", choices=("svg", "png"), default="svg", help="the images' format (default: svg)"
    )
    _ghost_option(frames)
    render = _script_command(commands, "render", _render, "write the final diagram")
    render.add_argument(
        "-o",
        "--output",
        required=True,
        type=Path,
        metavar="FILE.svg",
        help="the file to write; its suffix picks the format: .svg .png .pdf .dot .json",
    )
    animate = _script_command(
        commands, "animate", _animate, "write both passes as one animated .svg or .gif"
    )
    animate.add_argument(
        "-o",
        "--output",
        required=True,
        type=Path,
        metavar="FILE.svg",
        help="the file to write: .svg (CSS keyframes, no script) or .gif (needs Pillow)",
    )
    animate.add_argument(
        "--seconds-per-step",
        type=float,
        default=1.0,
        metavar="S",
        help="how long each step shows, 0.02 to 600 seconds (default: 1.0)",
    )
    handout = _script_command(
        commands,
        "handout",
        _handout,
        "write a printable worksheet: its questions beside still pictures of their steps, the "
        "answers on a page of their own, and a PDF where a PDF engine is installed",
    )
    handout.add_argument("-o", "--output", required=True, type=Path, metavar="FILE.html")
    handout.add_argument(
        "--pdf",
        action=argparse.BooleanOptionalAction,
        help="also write FILE.pdf beside FILE.html (default: where Chromium, WeasyPrint or "
        "wkhtmltopdf is installed; -o FILE.pdf writes the PDF alone)",
    )
    _quiz_options(handout, "the worksheet asks the learner", default="8 questions")
    lessons = commands.add_parser("lessons", help="copy the lesson notebooks into a folder")
    lessons.add_argument(
        "dir",
        nargs="?",
        default="autoviz-lessons",
        type=Path,
        metavar="DIR",
        help="where to put the copies (default: ./autoviz-lessons)",
    )
    lessons.add_argument("--force", action="store_true", help="overwrite notebooks already there")
    lessons.set_defaults(run=_lessons)
    return parser


def _script_command(commands, name: str, run, help_text: str) -> argparse.ArgumentParser:
    """A command that runs a user's script under the tracer, with the options all share."""
    from .render.theme import THEMES

    command = commands.add_parser(
        name,
        help=f"run SCRIPT.py traced and {help_text}",
        epilog="Arguments after -- are passed to the script as sys.argv[1:].",
    )
    command.add_argument(
        "script", type=Path, metavar="SCRIPT.py", help="the program to run, as python runs it"
    )
    command.add_argument(
        "--theme",
        choices=list(THEMES),
        default="default",
        help="colours and type: colorblind (Okabe–Ito), projector (large type), dark",
    )
    command.add_argument(
        "--engine",
        choices=("auto", "autoviz", "torch"),
        default="auto",
        help="run the script on autoviz's engine (`import torch` included) or on real PyTorch "
        "through the bridge; auto (the default): PyTorch for a script that imports torch, "
        "where it is installed",
    )
    command.add_argument(
        "--torch",
        dest="engine",
        action="store_const",
        const="torch",
        help="the same as --engine torch",
    )
    command.add_argument(
        "--partial",
        action="store_true",
        help="if the script raises, still write what was traced before the error",
    )
    _drawing_options(command, player=name in ("html", "present"))
    if name != "render":
        command.add_argument(
            "--full-iterations",
            type=_iterations,
            metavar="N",
            help="step through the first N iterations of a loop and its last in full and show "
            "the others condensed, their loss and parameters per iteration; 'all' for every one "
            "(default: as many as a page holds: a short run in full)",
        )
    command.set_defaults(run=run)
    return command


def _iterations(text: str):
    """--full-iterations: a count, or 'all' (every iteration in full)."""
    if text in ("all", "auto"):
        return text
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or 'all', got {text!r}") from None
    if count < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0 or 'all', got {count}")
    return count


def _drawing_options(command, player: bool) -> None:
    """The drawing options every picture-writing command shares: those of `autoviz.draw`.

    Values are not checked here but by make_options and check_timeout, the checks the Python
    API makes, so a bad value gets the same message from both (numbers are converted when they
    can be; what cannot reaches those checks as text and is refused there).
    """
    from .render.dot import COLLAPSE_ABOVE, MAX_NODES, OP_LABELS, RANKDIRS, VALUES

    add = command.add_argument
    way = (
        "(default: the way that fits the screen; R switches in the player)"
        if player
        else "(default: LR)"
    )
    add(
        "--rankdir",
        metavar=_choices(RANKDIRS),
        help=f"which way the graph flows: LR left to right, TB top to bottom, BT, RL {way}",
    )
    add(
        "--precision",
        type=_number(int),
        metavar="DIGITS",
        help="significant digits of the values and gradients shown, 1 to 17 (default: 4)",
    )
    add(
        "--legend",
        action=argparse.BooleanOptionalAction,
        help="draw the legend of the kinds of node the picture uses (default: --legend)",
    )
    add(
        "--values",
        metavar=_choices(VALUES),
        help="node values and gradients as text, as heatmaps (1-D and 2-D tensors: a "
        "diverging colour scale centred on zero), or none (default: text)",
    )
    add(
        "--show-grads",
        action=argparse.BooleanOptionalAction,
        help="show each tensor's gradient under its value (default: --show-grads)",
    )
    add(
        "--op-label",
        metavar=_choices(OP_LABELS),
        help="what an operation shows: its symbol and PyTorch's name (MulBackward0), one of "
        "them (default: both, or the name alone when inner tensors are hidden)",
    )
    add(
        "--show-saved",
        action=argparse.BooleanOptionalAction,
        help="draw the tensors each op saved for backward (_saved_self, ...) as orange boxes "
        "(default: --no-show-saved)",
    )
    add(
        "--depth",
        type=_number(int),
        metavar="N",
        help="how many levels of nn.Modules to draw opened; 0 draws each outermost module as "
        "one box (default: every level, unless the graph is big)",
    )
    add(
        "--expand",
        action="append",
        metavar="MODULE",
        help="draw this module opened whatever the depth, by its path (net.1); repeat for more",
    )
    add(
        "--collapse-above",
        type=_number(int),
        metavar="NODES",
        help="a graph of more nodes than this draws its modules as boxes, as many levels "
        f"opened as fit (default: {COLLAPSE_ABOVE})",
    )
    add(
        "--hide-inner-tensors",
        action=argparse.BooleanOptionalAction,
        help="leave intermediate tensors out, edges running op to op as in torchviz "
        "(default: only when the graph would still have more than --collapse-above nodes)",
    )
    add(
        "--max-nodes",
        type=_number(int),
        metavar="NODES",
        help="refuse to draw a graph of more nodes than this, before the layout engine "
        f"starts; in a timeline it becomes one summary step (default: {MAX_NODES:,})",
    )
    add(
        "--timeout",
        type=_number(float),
        metavar="SECONDS",
        help="time limit of each layout engine run (default: $AUTOVIZ_LAYOUT_TIMEOUT or 30)",
    )


def _choices(allowed) -> str:
    return "{" + ",".join(allowed) + "}"


def _number(kind):
    """An argparse type: the text as a number of `kind` when it is one, else the text itself,
    for make_options to refuse with the Python API's message."""

    def convert(text: str):
        try:
            return kind(text)
        except ValueError:
            return text

    convert.__name__ = kind.__name__
    return convert


def _player_options(command) -> None:
    _quiz_options(command, "the page asks the learner")
    _ghost_option(command)


def _quiz_options(command, who: str, default: str = "every question") -> None:
    from .tracing.quiz import KINDS

    command.add_argument(
        "--quiz",
        nargs="?",
        const="",
        metavar="PLAN",
        help=f"{who} to predict before a step reveals it: shapes, gradient elements, signs, "
        "masked zeros, broadcast sums, which tensors get a .grad, accumulation, updates. "
        "PLAN: how many questions and of what kinds, e.g. 8 or kinds=shape,element,which-grad "
        f"or 8,kinds=shape,sign (kinds: {', '.join(KINDS)}; default: {default})",
    )
    command.add_argument(
        "--quiz-every",
        type=_steps,
        metavar="N",
        help="at most one question every N steps (implies --quiz)",
    )


def _steps(text: str) -> int:
    """--quiz-every: a number of steps >= 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of steps >= 1, got {text!r}")
    return int(text)


def _quiz_plan(args, default=None):
    """The QuizPlan --quiz and --quiz-every ask for (None: no quiz), checked before the script
    runs."""
    from .tracing.quiz import parse_plan

    if args.quiz is None and args.quiz_every is None:
        return default
    return parse_plan(args.quiz or "", every=args.quiz_every)


def _quiz_report(bundle, plan) -> str:
    """How many questions the page asks, of which kinds; or, plainly, that it asks none."""
    from collections import Counter

    from .tracing.quiz import KINDS

    asked = Counter(s["quiz"]["kind"] for s in bundle.data["steps"] if s["quiz"])
    total = sum(asked.values())
    if total:
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(asked.items(), key=_by_kind))
        return f"the page asks {total} question{'s' if total != 1 else ''} ({kinds})"
    if not any(s["phase"] == "backward" for s in bundle.data["steps"]):
        why = "the script never runs backward(), and the questions are about what it does"
    elif plan.kinds != KINDS:
        why = f"none of its steps asks a question of the kinds given ({', '.join(plan.kinds)})"
    else:
        why = "none of the steps shown reveals a gradient, a shape or an update to predict"
    return f"--quiz: the page asks no questions: {why}"


def _by_kind(item) -> int:
    from .tracing.quiz import KINDS

    return KINDS.index(item[0])


def _ghost_option(command) -> None:
    command.add_argument(
        "--ghost",
        action="store_true",
        help="show the nodes not made yet faintly, instead of hiding them",
    )


def _drawing(args) -> dict:
    """The drawing options given on the command line, checked before the script runs by the
    checks `autoviz.draw` makes."""
    from dataclasses import fields

    from .render import make_options
    from .render.dot import Options
    from .render.layout import check_timeout

    names = [field.name for field in fields(Options)]
    given = {name: getattr(args, name, None) for name in names}
    given = {name: value for name, value in given.items() if value is not None}
    if given.get("full_iterations") == "all":
        given["full_iterations"] = None
    given["advice"] = "cli"  # a page made here tells its reader this command's flags
    make_options(**given)  # a bad --depth is refused now, not after the script ran
    if args.timeout is not None:
        given["timeout"] = check_timeout(args.timeout)
    return given


def _demo(args) -> int:
    from .examples import LESSON_EXAMPLE
    from .render import draw_graph
    from .tracing import graph_of

    namespace = runpy.run_path(str(LESSON_EXAMPLE), run_name="__autoviz_demo__")
    diagram = draw_graph(graph_of(namespace["z"], namespace))
    args.out.mkdir(parents=True, exist_ok=True)
    for name in ("graph.svg", "graph.dot"):
        _say(f"wrote {diagram.save(args.out / name)}")
    return 0


def _html(args) -> int:
    from .export.html import SUFFIXES

    _writable_file(args.output, SUFFIXES)
    plan, drawing = _quiz_plan(args), _drawing(args)
    run = _traced(args)
    return _done(args, run, _write_player(args, run, plan, drawing, args.output))


def _write_player(args, run, plan, drawing, path: Path) -> str:
    """Write the player page; what to say: where, and the questions it asks."""
    from .export.html import bundle_page
    from .export.playerdata import build

    bundle = build(run.timeline, quiz=plan or False, theme=args.theme, ghost=args.ghost, **drawing)
    files.write_text(path, bundle_page(bundle))
    said = [f"wrote {path}", *bundle.frames.folding_notes()]
    return "\n".join(said) + (f"\n{_quiz_report(bundle, plan)}" if plan else "")


def _handout(args) -> int:
    from .export import handout

    _writable_file(args.output, handout.SUFFIXES)
    engine = handout.engine_for(args.output, args.pdf)  # before the script runs, not after
    plan, drawing = _quiz_plan(args, default=handout.DEFAULT_QUIZ), _drawing(args)
    run = _traced(args)
    title = f"Worksheet: {args.script.name}"
    page, asked = handout.worksheet(
        run.timeline, quiz=plan, theme=args.theme, title=title, **drawing
    )
    said = [f"wrote {p}" for p in handout.write_handout(page, args.output, engine)]
    if engine is None and args.pdf is None:
        said.append(f"no PDF engine was found, so no PDF was written: {handout.PDF_HELP}")
    n = len(asked)
    said.append(
        f"the worksheet asks {n} question{'s' if n != 1 else ''}"
        if n
        else "--quiz: the worksheet asks no questions: its program gives none to ask"
    )
    return _done(args, run, "\n".join(said))


def _present(args) -> int:
    import tempfile

    plan, drawing = _quiz_plan(args), _drawing(args)
    run = _traced(args)
    path = Path(tempfile.mkdtemp(prefix="autoviz-")) / f"{args.script.stem}.html"
    _say(_write_player(args, run, plan, drawing, path))
    if not _open_in_browser(path):
        _say(f"no browser could be opened here: open {path.as_uri()} in a web browser")
    return _done(args, run)


def _frames(args) -> int:
    if args.output.exists() and not args.output.is_dir():
        raise AutovizError(f"cannot write frames into {str(args.output)!r}: it is a file")
    drawing = _drawing(args)
    run = _traced(args)
    paths = run.timeline.save_frames(
        args.output, args.format, theme=args.theme, ghost=args.ghost, **drawing
    )
    return _done(args, run, f"wrote {len(paths)} frame{'s' * (len(paths) != 1)} into {args.output}")


def _render(args) -> int:
    from .render import draw_graph
    from .render.diagram import SUFFIXES

    _writable_file(args.output, SUFFIXES)
    drawing = _drawing(args)
    run = _traced(args)
    final = run.timeline[-1]  # the graph as the script left it, drawn as autoviz.draw draws it
    final.current = []
    draw_graph(final, args.theme, **drawing).save(args.output)
    return _done(args, run, f"wrote {args.output}")


def _animate(args) -> int:
    from .export.animation import SUFFIXES, check_seconds_per_step, require_pillow

    _writable_file(args.output, SUFFIXES)
    if args.output.suffix.lower() == ".gif":
        require_pillow()  # before the script runs, not after
    check_seconds_per_step(args.seconds_per_step, "--seconds-per-step")  # before the script runs
    drawing = _drawing(args)
    run = _traced(args)
    run.timeline.save_animation(
        args.output, theme=args.theme, seconds_per_step=args.seconds_per_step, **drawing
    )
    return _done(args, run, f"wrote {args.output}")


def _writable_file(path: Path, suffixes=None) -> None:
    """Refuse an output path that cannot be written before the script runs, not after."""
    if path.is_dir():
        raise AutovizError(f"cannot write {str(path)!r}: it is a folder; give a file name")
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise AutovizError(
            f"cannot write {str(path)!r}: unknown suffix {path.suffix or '(none)'!r} "
            f"(must be one of {list(suffixes)})"
        )
    if not path.parent.is_dir():
        raise AutovizError(f"cannot write {str(path)!r}: folder {str(path.parent)!r} not found")


def _traced(args):
    """The script's Run; a script that raised shows its traceback and stops here unless
    --partial; one that traced nothing is an error."""
    from .runscript import ScriptError, exit_code, run_script

    run = run_script(args.script, args.script_args, engine=args.engine, exiting=args.exiting)
    _mute_closed_streams()
    if run.error is not None:
        _say(run.traceback, sys.stderr, end="")
        if not args.partial:
            raise ScriptError(
                f"{_what_happened(args, run)}, so nothing was written "
                f"(--partial writes what was traced before the error){_torch_hint(run)}",
                exit_code(run.error),
            )
    if not len(run.timeline):
        when = " before its error" if run.error is not None else ""
        raise ScriptError(
            f"{args.script.name} traced nothing{when}: {_nothing_traced(run.engine)}",
            1 if run.error is None else exit_code(run.error),
        )
    return run


def _mute_closed_streams() -> None:
    """A stream the script closed (sys.stdout.close()) shows nothing more, as after `python
    script.py`: what the export would print there (a progress bar) goes nowhere, not an error."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or stream.closed:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115


def _nothing_traced(engine: str) -> str:
    """What a script that traced nothing was missing, for the engine it ran on."""
    return (
        f"no {engine} tensor in it required grad, so no graph was recorded; make the tensors "
        "to differentiate with requires_grad=True (nn.Module parameters do)"
    )


def _what_happened(args, run) -> str:
    """`lesson.py raised RuntimeError`, or `lesson.py exited with code 3` (sys.exit)."""
    from .runscript import exit_code

    error = run.error
    if isinstance(error, SystemExit):
        return f"{args.script.name} exited with code {exit_code(error)}"
    return f"{args.script.name} raised {type(error).__name__}"


def _torch_hint(run) -> str:
    """For a script that reached a part of PyTorch autoviz lacks: how to run it anyway."""
    if run.engine == "autoviz" and "is not in autoviz" in str(run.error):
        return "; --engine torch runs it on real PyTorch"
    return ""


def _done(args, run, message: str | None = None) -> int:
    """Report what was written, and which graphs it shows as a summary only; a script that
    raised still fails (with --partial)."""
    from .render.frames import not_drawn
    from .runscript import ScriptError, exit_code

    if message:
        _say(message)
    alike = {}  # why -> the graphs not drawn for it (a loop's iterations: one line)
    for first, (last, nodes, why) in not_drawn(run.timeline).items():
        alike.setdefault(_as_flags(str(why)), []).append((first, last, nodes))
    for why, [(first, last, nodes), *more] in alike.items():
        steps = f"step {first:,}" if first == last else f"steps {first:,}–{last:,}"
        also = f" and {len(more)} more graph{'s' * (len(more) != 1)} like it" if more else ""
        _say(
            f"autoviz: {steps} (a graph of {nodes:,} nodes){also} were not drawn, the export "
            f"shows each as one summary picture: {why}",
            sys.stderr,
        )
    if run.error is not None:
        raise ScriptError(
            f"{_what_happened(args, run)}: wrote what was traced before it "
            f"({len(run.timeline)} steps)",
            exit_code(run.error),
        )
    return 0


# The Python API's options as the drawing errors name them (max_nodes=5,000, the timeout=
# argument), and as this command line takes them (--max-nodes 5,000, the --timeout option).
_OPTION = re.compile(
    r"\b(depth|collapse_above|max_nodes|hide_inner_tensors|timeout|expand)="
    r"(?:([0-9][0-9,]*)|None \(or True\))?( argument)?"
)


def _as_flags(message: str) -> str:
    """A drawing error's advice in this command line's words."""

    def flag(m: re.Match) -> str:
        name = "--" + m[1].replace("_", "-")
        return f"{name} {m[2]}" if m[2] else name + " option" * bool(m[3])

    return _OPTION.sub(flag, message)


def _open_in_browser(path: Path) -> bool:
    """Open the file in the default browser; False when there is none (e.g. over ssh)."""
    import webbrowser

    graphical = sys.platform in ("darwin", "win32") or any(
        os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")
    )
    # Without a display webbrowser falls back to text browsers that would take over the shell.
    return graphical and webbrowser.open(path.as_uri())


def _lessons(args) -> int:
    """Copy the lesson notebooks into args.dir for a student to edit; say how to open them."""
    package = Path(__file__).resolve().parent
    source = package / "lessons"  # where a wheel has them; a source checkout has notebooks/
    if not source.is_dir():
        source = package.parent / "notebooks"
    notebooks = sorted(source.glob("*.ipynb"))
    if not notebooks:
        raise FileNotFoundError(
            f"no lesson notebooks in {source}: reinstall from the clone (pip install .)"
        )
    if args.dir.exists() and not args.dir.is_dir():
        raise FileExistsError(f"{args.dir} is a file, not a folder: name a folder to copy into")
    clashes = [n.name for n in notebooks if (args.dir / n.name).exists()]
    if clashes and not args.force:
        more = f" and {len(clashes) - 1} more lesson notebooks" if len(clashes) > 1 else ""
        raise FileExistsError(
            f"{args.dir} already has {clashes[0]}{more}: pass --force to overwrite them, "
            "or name another folder"
        )
    args.dir.mkdir(parents=True, exist_ok=True)
    from .progress import progress

    with files.batch() as copies:  # all or none: a full disk leaves the folder as it was
        for notebook in progress(notebooks, "lessons", unit="notebook"):
            copies.add(args.dir / notebook.name, notebook.read_bytes())
    print(f"copied {len(notebooks)} lesson notebooks into {args.dir}")
    print(f"open them with: jupyter lab {shlex.quote(str(args.dir))}")
    print("(JupyterLab and matplotlib come with: pip install jupyterlab matplotlib)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
