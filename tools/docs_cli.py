"""Write the command-line reference of docs/cli.md from the argparse parser (`--check`: say
whether the page is up to date, for CI and tests).

    python tools/docs_cli.py           # rewrite the block between the reference markers
    python tools/docs_cli.py --check   # exit 1 if docs/cli.md differs from the parser
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "cli.md"
BEGIN = "<!-- cli-reference: written by tools/docs_cli.py from autoviz/cli.py; do not edit -->"
END = "<!-- /cli-reference -->"


def _cell(text: str) -> str:
    """Text for a markdown table cell: pipes escaped, wrapped lines joined."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _flags(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    value = ""
    if action.nargs != 0:
        if action.metavar:
            value = f" {action.metavar}"
        elif action.choices:
            value = " {" + ",".join(map(str, action.choices)) + "}"
        else:
            value = f" {action.dest.upper()}"
    return ", ".join(f"`{flag}{value}`" for flag in action.option_strings)


def _default(action: argparse.Action) -> str:
    if action.required:
        return "required"
    if action.default in (None, False, argparse.SUPPRESS) or action.nargs == 0:
        return ""
    return f"`{action.default}`"


def _usage(parser: argparse.ArgumentParser) -> str:
    """The usage lines as argparse wraps them on a terminal 90 columns wide, whatever this one."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "90"
    try:
        first, *rest = parser.format_usage().rstrip().splitlines()
        prefix = " " * len("usage: ")  # the wrapped lines stay under the command's name
        return "\n".join([first.removeprefix("usage: ")] + [r.removeprefix(prefix) for r in rest])
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def _command(name: str, parser: argparse.ArgumentParser, summary: str) -> list[str]:
    usage = _usage(parser)
    lines = [f"### autoviz {name}", "", _cell(summary[:1].upper() + summary[1:]) + ".", ""]
    lines += ["```text", usage, "```", ""]
    lines += ["| argument | default | what it does |", "|---|---|---|"]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        lines.append(f"| {_flags(action)} | {_default(action)} | {_cell(action.help or '')} |")
    if parser.epilog:
        lines += ["", _cell(parser.epilog)]
    return [*lines, ""]


def reference() -> str:
    """The reference block: every command of `autoviz` with every argument and its help."""
    from autoviz.cli import _parser

    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help for choice in commands._choices_actions}
    lines = [BEGIN, "", "```text", _usage(parser), "```", ""]
    for name, sub in commands.choices.items():
        lines += _command(name, sub, helps.get(name, ""))
    return "\n".join(lines).rstrip() + "\n\n" + END


def updated(text: str) -> str:
    """The page's text with its reference block rewritten."""
    head, found, rest = text.partition(BEGIN)
    if not found or END not in rest:
        raise SystemExit(f"{PAGE} has no {BEGIN!r} ... {END!r} block")
    return head + reference() + rest.split(END, 1)[1]


def main() -> int:
    check = "--check" in sys.argv[1:]
    text = PAGE.read_text(encoding="utf-8")
    new = updated(text)
    if check:
        if new != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python tools/docs_cli.py")
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
