"""Jupyter widgets: the Stepper and the Comparison, the HTML player's front-end loaded by
anywidget."""

from .compare import Comparison
from .stepper import Stepper

__all__ = ["Comparison", "Stepper"]
