"""A long run at a glance: each graph of a timeline as one iteration, with its loss and leaves."""

from dataclasses import dataclass, field

from .index import index_of
from .model import PERSISTENT


@dataclass
class Iteration:
    """One graph of a timeline (a training loop builds one per iteration), seen from afar."""

    number: int  # the graph's number, as in a step's details["graph"]
    steps: range  # its steps, first to last
    loss: float | None = None  # the value backward started from, when it is a number
    # Each leaf the graph used (a parameter, a weight) -> its value after the iteration: a
    # number, nested lists for a small tensor, or None for one too big to preview.
    values: dict = field(default_factory=dict)


def iterations(tl) -> list[Iteration]:
    """Every graph of `tl` that has steps, in order, as an Iteration (found once)."""
    index = index_of(tl)
    found = tl.__dict__.get("_iterations")
    if found is None or found[0] is not index:
        found = tl.__dict__["_iterations"] = (index, _iterations(tl, index))
    return list(found[1])


def _iterations(tl, index) -> list[Iteration]:
    out = []
    for number in sorted(index.parts):
        part = index.parts[number]
        if not part.steps:
            continue
        it = Iteration(number, range(part.steps[0], part.steps[-1] + 1))
        it.loss = _loss(tl, index, part)
        for node in part.nodes:
            if node.graph == PERSISTENT and node.kind == "leaf":
                it.values[node.name] = index.state(node, part.last).value
        out.append(it)
    return out


def _loss(tl, index, part) -> float | None:
    """The value of the tensor backward first started from in this graph, if a number."""
    for k in part.steps:
        step = tl.steps[k]
        if step.kind == "seed" and step.nodes:
            value = index.state(index.by_id[step.nodes[0]], k).value
            return float(value) if isinstance(value, int | float) else None
    return None


def plotted(values: list) -> bool:
    """Whether a series of iteration values can be drawn as a line: numbers, some None."""
    numbers = [v for v in values if v is not None]
    return bool(numbers) and all(isinstance(v, int | float) for v in numbers)
