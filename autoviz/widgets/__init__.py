"""Jupyter widgets: the Stepper, the HTML player's front-end loaded by anywidget."""

from .stepper import Stepper

__all__ = ["Stepper"]
