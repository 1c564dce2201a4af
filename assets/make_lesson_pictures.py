"""Draw one picture per lesson notebook for the teacher's guide's cards (assets/lesson-NN.svg).

Run from the repository root: python assets/make_lesson_pictures.py. Each picture is drawn from
the same code its notebook runs, with graphviz-pure (the layout engine every user has), so the
files only change when the renderer does.
"""

import os
import shutil
import sys
import sysconfig
from pathlib import Path

import autoviz
import autoviz as torch

ASSETS = Path(__file__).resolve().parent
# A card is narrow (a third of the page or less): top to bottom, a small graph stays legible.
CARD = "TB"


def lesson_leaves(module=torch):
    x = module.tensor(2.0, requires_grad=True)
    w = module.tensor(3.0, requires_grad=True)
    b = module.tensor(1.0, requires_grad=True)
    return x, w, b


def lesson_01():
    """The forward pass half-way: the product exists, the sum is still a ghost."""
    x, w, b = lesson_leaves()
    with autoviz.trace() as tl:
        y = w * x
        z = y + b  # noqa: F841 (the traced line is what the picture shows)
    return tl.draw(step=2, ghost=True, legend=False, rankdir=CARD)


def lesson_02():
    """f(3.0): the loop ran three times and took the log branch."""
    x = torch.tensor(3.0, requires_grad=True)
    y = x
    for _ in range(3):
        y = y * x
    out = y.log()
    return autoviz.draw(out, legend=False, rankdir=CARD)


def lesson_03():
    """Backward at MulBackward0: upstream × local on each edge."""
    x, w, b = lesson_leaves()
    with autoviz.trace() as tl:
        y = w * x
        z = y + b
        z.backward()
    return tl.draw(step=8, legend=False, rankdir=CARD)


def lesson_04():
    """retain_grad(): the intermediate y keeps its gradient."""
    x, w, b = lesson_leaves()
    y = w * x
    y.retain_grad()
    z = y + b
    z.backward()
    return autoviz.draw(z, legend=False, rankdir=CARD)


def lesson_05():
    """no_grad and detach: greyed, dashed parts of the graph."""
    w = torch.tensor(3.0, requires_grad=True)
    tracked = w * 2
    with torch.no_grad():
        scale = w * 10
    frozen = w.detach()
    out = tracked * scale + frozen
    return autoviz.draw(out, legend=False, rankdir=CARD)


def lesson_06():
    """A broadcast bias and the reduction of its gradient."""
    torch.manual_seed(0)
    X = torch.randn(4, 3)
    W = torch.randn(3, 2, requires_grad=True)
    bias = torch.tensor([0.5, -1.0], requires_grad=True)
    with autoviz.trace() as tl:
        loss = (X @ W + bias).sum()
        loss.backward()
    reduce_step = next(k for k, s in enumerate(tl.steps) if s.kind == "reduce")
    return tl.draw(step=reduce_step, legend=False, rankdir=CARD)


def lesson_07():
    """An MLP's loss grouped by module, each layer collapsed into a block."""
    from autoviz import nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1, 4), nn.Tanh(), nn.Linear(4, 1))
    X = torch.linspace(-1, 1, 16).reshape(16, 1)
    loss = nn.MSELoss()(model(X), 2 * X + 0.5)
    return autoviz.draw(loss, depth=1, legend=False, rankdir=CARD)


def lesson_08():
    """Real PyTorch's graph of the lesson example, after its backward pass."""
    import torch as real_torch

    x, w, b = lesson_leaves(real_torch)
    with autoviz.trace_torch() as tl:
        y = w * x
        z = y + b
        z.backward()
    return tl.draw(legend=False, rankdir=CARD)


def main() -> int:
    pure = Path(sysconfig.get_path("scripts")) / "graphviz-pure"
    os.environ.setdefault("AUTOVIZ_DOT", str(pure) if pure.exists() else "graphviz-pure")
    if shutil.which(os.environ["AUTOVIZ_DOT"]) is None:
        print("graphviz-pure not found: pip install graphviz-pure", file=sys.stderr)
        return 1
    for n in range(1, 9):
        path = globals()[f"lesson_{n:02d}"]().save(ASSETS / f"lesson-{n:02d}.svg")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
