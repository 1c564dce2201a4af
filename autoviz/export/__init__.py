"""Files for classrooms: images per step, a looping animation, the self-contained HTML player."""

from .animation import save_animation
from .frames import save_frames
from .html import save_html

__all__ = ["save_animation", "save_frames", "save_html"]
