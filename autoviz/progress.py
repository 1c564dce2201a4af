"""Progress bars for long work only: a bar appears once the work has taken half a second."""

DELAY = 0.5  # seconds: work done sooner prints nothing, so a bar never just flashes


def progress(items, what: str, unit: str = "step"):
    """`items`, iterated under a progress bar on stderr that shows only once the loop has run
    for DELAY seconds (and then to its end), labelled `what`."""
    from tqdm import tqdm

    return tqdm(items, desc=what, unit=unit, delay=DELAY)
