"""Widget callbacks whose exceptions are shown in an Output widget, not lost in the kernel log."""

import functools
import traceback


def shown_in(output_attr: str):
    """Decorate a method so an exception it raises is appended to `self.<output_attr>`.

    ipywidgets only logs errors raised in `observe` and `on_click` handlers (JupyterLab hides
    that log), so a learner would see a button that does nothing. The traceback goes into the
    Output widget as a notebook error output, which every front-end renders.
    """

    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except Exception as error:
                show_error(getattr(self, output_attr), error)
                return None

        return wrapper

    return decorate


def show_error(output, error: BaseException) -> None:
    """Append `error` with its traceback to the Output widget `output`."""
    lines = traceback.format_exception(type(error), error, error.__traceback__)
    output.outputs = (
        *output.outputs,
        {
            "output_type": "error",
            "ename": type(error).__name__,
            "evalue": str(error),
            "traceback": [line.rstrip("\n") for line in lines],
        },
    )
