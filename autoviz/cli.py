"""The `autoviz` command: classroom demos and exports from the shell."""

import argparse
import runpy
import sys
from pathlib import Path

from . import __version__
from .errors import AutovizError


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 on success)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except (AutovizError, OSError, ValueError) as error:
        print(f"autoviz: error: {error}", file=sys.stderr)
        return 1


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
    return parser


def _demo(args) -> int:
    from .examples import LESSON_EXAMPLE
    from .render import draw_graph
    from .tracing import graph_of

    namespace = runpy.run_path(str(LESSON_EXAMPLE), run_name="__autoviz_demo__")
    diagram = draw_graph(graph_of(namespace["z"], namespace))
    args.out.mkdir(parents=True, exist_ok=True)
    for name in ("graph.svg", "graph.dot"):
        print(f"wrote {diagram.save(args.out / name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
