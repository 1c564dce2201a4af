"""Files for classrooms: one image per step for slides (and, later, the HTML player)."""

from .frames import save_frames

__all__ = ["save_frames"]
