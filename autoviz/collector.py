"""Python's garbage collector held back while autoviz makes many objects that stay alive."""

import contextlib
import gc

# Above any count a run reaches: the oldest generation is then never collected on its own.
_NEVER = 1 << 30


@contextlib.contextmanager
def collector_paused():
    """The collector off while a block makes objects that stay alive (a timeline's nodes and
    steps): it would walk the growing heap again and again, finding nothing to free (a third
    of a build's time). On again after, whatever happened."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            _promote()
            gc.enable()


def _promote() -> None:
    """Move what the block made to the oldest generation, as surviving collections would,
    without walking it: on again, the collector would first scan all of it as young objects
    (0.6 s after a 2,000-iteration build). Only when nothing else froze objects (a server
    about to fork may have): unfreeze would thaw those too."""
    if gc.get_freeze_count() == 0:
        gc.freeze()  # every tracked object to the permanent generation, the young count reset
        gc.unfreeze()  # and all of them into the oldest generation


def hold_oldest_generation() -> tuple:
    """While a traced program runs: no collection of the oldest generation, which holds the
    recording (kept alive to the end) and what torch or numpy loaded; each would walk all of
    it (0.7 s in a 2,000-iteration loop). The young generations, where the program's own
    cyclic garbage dies, are still collected. Returns the settings to `restore`."""
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], _NEVER)
    return thresholds


def restore(thresholds: tuple) -> None:
    """The collector's thresholds as `hold_oldest_generation` found them."""
    gc.set_threshold(*thresholds)
