"""Example programs that the CLI runs and the lessons start from."""

from pathlib import Path

LESSON_EXAMPLE = Path(__file__).with_name("lesson_example.py")
