"""Trait values a widget refuses: undone whoever set them, and the front-end told why."""

import traitlets

from ..tracing.schema import short


class RefusedValue(traitlets.TraitError, ValueError):
    """A value a trait cannot take (an unknown theme); traitlets undoes a state message's
    values only on a TraitError, and Python callers catch a ValueError."""


class RefusedType(traitlets.TraitError, TypeError):
    """A value of a type a trait's check refuses (an option that must be True or False)."""


class RefusedIndex(traitlets.TraitError, IndexError):
    """A step the timeline does not have."""


def refused(error: Exception) -> traitlets.TraitError:
    """`error` (a ValueError, TypeError or IndexError of a check) as a trait refusal of its
    kind."""
    for python, kind in ((IndexError, RefusedIndex), (TypeError, RefusedType)):
        if isinstance(error, python):
            return kind(str(error))
    return RefusedValue(str(error))


def step_of(steps: int, value) -> int:
    """`value` as a step of a timeline of `steps` steps; negative counts from the end."""
    try:
        return range(steps)[value]
    except IndexError:
        raise RefusedIndex(
            f"step {short(value)} is not one of this timeline's: it has {steps} steps (0 to "
            f"{steps - 1}, or -{steps} to -1 from the end)"
        ) from None


class Replies:
    """Mixed into a widget: a state message from its front-end that sets a value the widget
    refuses changes nothing; the front-end gets the kernel's values back and, as a custom
    message, the error (the player shows it where it explains the step)."""

    def set_state(self, sync_data):
        try:
            super().set_state(sync_data)
        except traitlets.TraitError as error:  # undone already: see RefusedValue
            self.send_state([key for key in sync_data if key in self.keys])
            self.send({"kind": "error", "error": str(error)})
