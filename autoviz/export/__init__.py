"""Files for classrooms: one image per step for slides, and the self-contained HTML player."""

from .frames import save_frames
from .html import save_html

__all__ = ["save_frames", "save_html"]
