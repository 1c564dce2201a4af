"""Jupyter widgets for stepping through a Timeline (core ipywidgets only, no front-end build)."""

from .stepper import Stepper

__all__ = ["Stepper"]
