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
            gc.enable()


@contextlib.contextmanager
def oldest_generation_paused():
    """While a traced program runs: no collection of the oldest generation, which holds the
    recording (kept alive to the end) and what torch or numpy loaded; each would walk all of
    it (0.7 s in a 2,000-iteration loop). The young generations, where the program's own
    cyclic garbage dies, are still collected."""
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], _NEVER)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
