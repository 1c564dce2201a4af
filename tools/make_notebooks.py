"""Write the first version of the lesson notebooks in notebooks/ (run from the repository root).

The committed .ipynb files are the source of truth: teachers improve them in Jupyter. This script
is how they were first written, kept so a structural change (a new section everywhere) can be
made in one place; it refuses to overwrite notebooks unless given --force.

Cell conventions the tests rely on: an exercise cell is tagged "exercise" and keeps a working
answer in its metadata (autoviz.solution); the cell after it is tagged "check" and prints "Right"
for a right answer. Each lesson has a predict-then-reveal section (PREDICT): a tensor program's
quiz question in a cell tagged "predict", the learner's answer as an exercise, its check, then the
step that shows it. Notebooks are saved without outputs.
"""

import sys
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

SETUP = """\
import autoviz  # the drawing and stepping tool
import autoviz as torch  # the engine, with PyTorch's names: read `torch.` as real PyTorch
from autoviz.tracing.explain import explain
from autoviz.tracing.questions import Question"""

LESSON_LEAVES = """\
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)"""

STEPPER_NOTE = (
    "The stepper below runs in a live notebook (JupyterLab, Notebook 7, VS Code or Colab): step "
    "with its buttons or the arrow keys once you have clicked it. Where widgets do not run "
    "(GitHub, nbviewer) it leaves one still picture, of the step it shows."
)


def md(text):
    return ("md", text)


def code(text):
    return ("code", text)


def exercise(text, solution):
    return ("exercise", text, solution)


def check(prompt, answer_expr):
    """A checking cell: prints a friendly verdict on `my_answer`, never raises."""
    return (
        "check",
        f"question = Question(\n    {prompt!r},\n    answer={answer_expr},\n)\n"
        "right, verdict = question.check(my_answer)\n"
        "print(verdict)",
    )


LESSONS = {}

LESSONS["01_computation_graphs"] = [
    md(
        "# Lesson 1 — Computation graphs\n\n"
        "When you compute with tensors that need gradients, autograd quietly writes down every "
        "operation it performs. The written record is a *computation graph*: the recipe that "
        "produced your result, kept so that gradients can later be worked out backwards.\n\n"
        "In these lessons `torch.` is autoviz's engine, which copies PyTorch's names and "
        "behaviour, and `autoviz.` is the tool that draws what the engine recorded. Run the cells "
        "from top to bottom."
    ),
    code(SETUP),
    md(
        "## A graph is recorded while you compute\n\n"
        "Three tensors are made with `requires_grad=True`: we are telling autograd that we will "
        "want gradients with respect to them, so it should keep track of what is done with them. "
        "Then we compute `y = w * x` and `z = y + b`, exactly as the lesson does."
    ),
    code(
        LESSON_LEAVES + "\n\ny = w * x  # an intermediate result\nz = y + b  # the final result\n"
        'print(f"Result z: {z}")'
    ),
    md(
        "## Nodes and edges\n\n"
        "Draw what was recorded. The graph is a *directed acyclic graph*: arrows only point "
        "forward, from the tensors an operation reads to the tensor it produces, and you can "
        "never follow them round in a circle. There are two kinds of node: **tensors** (boxes) "
        'and **operations** (ellipses). An edge says "this value was fed into that operation" '
        'or "that operation produced this value".'
    ),
    code("autoviz.draw(z)"),
    md(
        "## Reading the picture: the legend\n\n"
        "The legend lists the kinds of node this picture uses:\n\n"
        "- **blue boxes** are *leaf tensors*: made by us, with `requires_grad=True` (`x`, `w`, "
        "`b`);\n"
        "- **yellow ellipses** are *operations*, labelled with their symbol and the name of the "
        "backward function autograd attached (`MulBackward0`, `AddBackward0`);\n"
        "- **green boxes** are *intermediate* tensors (`y`), and the *output* (`z`) has a heavier "
        "border.\n\n"
        "Shape tells the kinds apart as well as colour, so the picture still reads in black and "
        "white. A theme for colour-blind readers and one for projectors exist too:"
    ),
    code('autoviz.draw(z, theme="colorblind", rankdir="TB")'),
    md(
        "## grad_fn: the way back\n\n"
        "A tensor produced by a tracked operation remembers which operation made it in its "
        "`grad_fn` attribute. Tensors we typed in ourselves were made by no operation, so their "
        "`grad_fn` is `None`. The `grad_fn` objects are the yellow ellipses in the picture."
    ),
    code(
        'for name, t in [("x", x), ("w", w), ("b", b), ("y", y), ("z", z)]:\n'
        '    print(f"{name}.grad_fn = {t.grad_fn}")'
    ),
    md(
        "## Stepping through the forward pass\n\n"
        "`autoviz.trace()` records a program step by step. Inside the block we build the same "
        "graph again; afterwards `tl` is a *timeline* of what happened, one step per new node. "
        "Press ▶ (or drag the slider) to watch the graph grow in the order Python ran the "
        "lines.\n\n" + STEPPER_NOTE
    ),
    code(
        LESSON_LEAVES + "\n\nwith autoviz.trace() as tl:\n    y = w * x\n    z = y + b\n\n"
        "for step in tl.steps:\n    print(step.index, step.caption)"
    ),
    code("autoviz.Stepper(tl, step=2)  # the multiplication has run, the addition not yet"),
    md(
        "## Exercise: count the nodes\n\n"
        "Suppose we also compute `q = z * z - x`. How many **operation** nodes will the graph "
        "ending at `q` have? Think first, write your number in place of `None`, then run the "
        "checking cell. The drawing after it lets you count."
    ),
    exercise("my_answer = None  # how many operation nodes?", "my_answer = 4"),
    check(
        "How many operation nodes does the graph of q = z * z - x have?",
        "sum(n.kind == 'op' for n in autoviz.tracing.graph_of(z * z - x).nodes)",
    ),
    code("q = z * z - x\nautoviz.draw(q)"),
]

LESSONS["02_dynamic_graphs"] = [
    md(
        "# Lesson 2 — Dynamic graphs\n\n"
        "Nobody declares the graph in advance. autograd builds it *while your Python code runs*, "
        "one operation at a time, so the graph is whatever your code actually did on this "
        "particular input. Run the same function on different inputs and you can get different "
        "graphs."
    ),
    code(
        SETUP + "\nfrom IPython.display import HTML\n\n\n"
        "def side_by_side(*diagrams):\n"
        '    """Show several diagrams next to each other."""\n'
        '    cells = "".join(f\'<div style="flex:none">{d.svg()}</div>\' for d in diagrams)\n'
        "    row = '<div style=\"display:flex; gap:2em; align-items:flex-start\">'\n"
        "    return HTML(f'{row}{cells}</div>')"
    ),
    md(
        "## Python's if and for shape the graph\n\n"
        "This function multiplies by its input as many times as the input's value says, then "
        "takes the logarithm only if the result is above 10. Only the operations that really "
        "run are recorded: a loop that runs three times leaves three multiplications in the "
        "graph, and the branch not taken leaves nothing."
    ),
    code(
        "def f(x):\n"
        "    y = x\n"
        "    for _ in range(int(x.item())):  # the loop count comes from the data\n"
        "        y = y * x\n"
        "    if y.item() > 10:\n"
        "        out = y.log()\n"
        "    else:\n"
        "        out = -y\n"
        "    return out\n"
        "\n"
        "x1 = torch.tensor(1.0, requires_grad=True)\n"
        "x3 = torch.tensor(3.0, requires_grad=True)\n"
        "out1, out3 = f(x1), f(x3)\n"
        "print(out1, out3)"
    ),
    md(
        "## The same function, two graphs\n\n"
        "Left: `f(1.0)` — one trip round the loop, then the `else` branch. Right: `f(3.0)` — "
        "three trips, then the `log` branch."
    ),
    code(
        "side_by_side(\n"
        '    autoviz.draw(out1, rankdir="TB", legend=False),\n'
        '    autoviz.draw(out3, rankdir="TB", legend=False),\n'
        ")"
    ),
    md(
        "## Watching the graph grow with the loop\n\n"
        "Tracing the call shows each iteration adding its node as the loop runs.\n\n" + STEPPER_NOTE
    ),
    code(
        "x = torch.tensor(3.0, requires_grad=True)\n"
        "with autoviz.trace() as tl:\n"
        "    out = f(x)\n"
        "    out.backward()\n"
        "print(tl)\n"
        "autoviz.Stepper(tl, step=-1)"
    ),
    md(
        "## Debugging with ordinary prints\n\n"
        "Because the graph is built as each line runs, you can stop anywhere and look with the "
        "tools you already know: `print`, a debugger (`breakpoint()`), or an `assert`. Every "
        "intermediate tensor already has its value and its `grad_fn` at that moment."
    ),
    code(
        "def f_verbose(x):\n"
        "    y = x\n"
        "    for i in range(int(x.item())):\n"
        "        y = y * x\n"
        '        print(f"after iteration {i}: y = {y.item()}, made by {y.grad_fn.name()}")\n'
        "    return y\n"
        "\n"
        "_ = f_verbose(torch.tensor(2.0, requires_grad=True))"
    ),
    md(
        "## Exercise: predict the graph\n\n"
        "How many `MulBackward0` nodes does the graph of `f(torch.tensor(4.0, "
        "requires_grad=True))` contain? Replace `None` with your number."
    ),
    exercise("my_answer = None  # how many MulBackward0 nodes for f(4.0)?", "my_answer = 4"),
    check(
        "How many MulBackward0 nodes does f(4.0) record?",
        "sum(n.op == 'MulBackward0' for n in "
        "autoviz.tracing.graph_of(f(torch.tensor(4.0, requires_grad=True))).nodes)",
    ),
]

LESSONS["03_forward_and_backward"] = [
    md(
        "# Lesson 3 — Forward and backward\n\n"
        "Computing the result is the *forward pass*; it builds the graph. Calling `.backward()` "
        "starts the *backward pass*: autograd walks the graph from the result back towards the "
        "leaves and, at each operation, applies the chain rule to pass gradients along."
    ),
    code(SETUP),
    md(
        "## The forward pass records, the backward pass replays in reverse\n\n"
        "Each `grad_fn` holds links to the backward functions of its inputs "
        "(`next_functions`). Those links are the graph's edges seen from the output's side: "
        "they are the road the backward pass travels. A leaf ends the road with an "
        "`AccumulateGrad` node, which stores the gradient into `.grad`."
    ),
    code(
        LESSON_LEAVES + "\ny = w * x\nz = y + b\n\n"
        "print(z.grad_fn, '->', z.grad_fn.next_functions)\n"
        "print(y.grad_fn, '->', y.grad_fn.next_functions)"
    ),
    md(
        "## Stepping through the backward pass\n\n"
        "Trace the whole program, forward and backward. In the backward steps the edges that "
        "carry a gradient turn orange, point back towards the inputs, and are labelled "
        "`upstream × local = contribution`.\n\n" + STEPPER_NOTE
    ),
    code(
        LESSON_LEAVES + "\n\nwith autoviz.trace() as tl:\n    y = w * x\n    z = y + b\n"
        "    z.backward()\n\n"
        "autoviz.Stepper(tl, step=8)  # MulBackward0 at work"
    ),
    md(
        "## The chain rule on each edge\n\n"
        "At every operation the gradient arriving from above (*upstream*) is multiplied by the "
        "operation's own derivative with respect to each input (*local*). For `y = w * x` the "
        "local derivative towards `w` is `x`, and towards `x` it is `w`. `explain` spells out "
        "each backward step in numbers:"
    ),
    code(
        "for k, step in enumerate(tl.steps):\n"
        '    if step.phase == "backward":\n'
        "        print(explain(tl, k))\n"
        'print("x.grad =", x.grad, " w.grad =", w.grad, " b.grad =", b.grad)'
    ),
    md(
        "## Why backward wants a scalar\n\n"
        'A gradient answers "how does *one number* change when each input moves a little?". '
        "If the result holds several numbers, autograd does not know which combination of them "
        "you care about, so `.backward()` with no argument refuses:"
    ),
    code(
        "v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "u = v * v\n"
        "try:\n"
        "    u.backward()\n"
        "except RuntimeError as error:\n"
        '    print("RuntimeError:", error)'
    ),
    md(
        "## gradient= for non-scalar outputs\n\n"
        "Pass `gradient=` to say how much each element of the result matters: it is the "
        "upstream gradient the backward pass starts from. Ones everywhere gives the same as "
        "`u.sum().backward()`."
    ),
    code(
        "u.backward(gradient=torch.tensor([1.0, 1.0, 1.0]))\n"
        'print("v.grad =", v.grad, " (2 * v)")\n'
        "v.grad = None\n"
        "u = v * v\n"
        "u.backward(gradient=torch.tensor([1.0, 0.0, 10.0]))\n"
        'print("v.grad =", v.grad, " (weighted)")'
    ),
    md(
        "## Taking the lesson to class\n\n"
        "`tl.save_html(path)` writes the same stepper as one self-contained web page: no "
        "Python, no network, it opens from a USB stick. Arrow keys step, Space plays, `F` "
        "switches to projector mode (large type), `R` turns the graph's direction, `+`/`−`/`0` "
        "zoom, and the view follows each step.\n\n"
        "The cell below writes it into a temporary folder, not next to this notebook, and "
        "prints its address: paste that into a web browser's address bar (or open the file "
        "from your file manager). JupyterLab can show it too, if you copy it next to the "
        "notebook, open it from the file browser and press **Trust HTML**, so its script may run."
    ),
    code(
        "import tempfile\nfrom pathlib import Path\n\n"
        'page = tl.save_html(Path(tempfile.mkdtemp()) / "forward_and_backward.html")\n'
        'print("open this in a web browser:", page.as_uri())'
    ),
    md(
        "## Exercise: quiz mode\n\n"
        "`Stepper(tl, quiz=True)` asks you for each gradient before it reveals it. Try it on "
        "`z = w * x * x + b`. Then answer here: what is `x.grad`? (Hint: `x` reaches `z` along "
        "two edges, and the contributions add up.)"
    ),
    code(
        LESSON_LEAVES + "\nwith autoviz.trace() as tl:\n    z = w * x * x + b\n    z.backward()\n"
        'first_backward = next(k for k, s in enumerate(tl.steps) if s.phase == "backward")\n'
        "autoviz.Stepper(tl, quiz=True, step=first_backward - 1)  # forward done, nothing revealed"
    ),
    exercise("my_answer = None  # x.grad for z = w * x * x + b", "my_answer = 12"),
    check("What is x.grad for z = w * x * x + b at x=2, w=3?", "x.grad.item()"),
]

LESSONS["04_leaf_tensors_and_gradients"] = [
    md(
        "# Lesson 4 — Leaf tensors and gradients\n\n"
        "Gradients do not land everywhere. This lesson shows where they are kept, where they "
        "are thrown away, and how they pile up if you are not careful."
    ),
    code(SETUP),
    md(
        "## Leaves and non-leaves\n\n"
        "A *leaf* sits at the start of the graph: a tensor you created yourself (with "
        "`torch.tensor`, `torch.randn`, …), or a model parameter. Anything produced by a "
        "tracked operation is a *non-leaf* and has a `grad_fn`. `is_leaf` tells them apart."
    ),
    code(
        LESSON_LEAVES + "\ny = w * x\nz = y + b\n"
        'for name, t in [("x", x), ("w", w), ("y", y), ("z", z)]:\n'
        '    print(f"{name}: is_leaf={t.is_leaf}, grad_fn={t.grad_fn}")'
    ),
    md(
        "## .grad is filled on leaves only\n\n"
        "After `backward()` the leaves that require grad hold their gradient in `.grad`. The "
        "intermediate `y` also received a gradient during the pass, but autograd used it and "
        "dropped it to save memory: `y.grad` stays `None` (and the engine warns you, as PyTorch "
        "does, that you probably meant a leaf). The picture says `None (not retained)`."
    ),
    code(
        "z.backward()\n"
        'print("x.grad =", x.grad, " y.grad =", y.grad)  # reading y.grad warns\n'
        "autoviz.draw(z)"
    ),
    md(
        "## retain_grad() keeps an intermediate's gradient\n\n"
        "If you want to inspect the gradient of an intermediate, ask for it *before* the "
        "backward pass with `retain_grad()`."
    ),
    code(
        LESSON_LEAVES + "\n\nwith autoviz.trace() as tl:\n    y = w * x\n    y.retain_grad()\n"
        "    z = y + b\n    z.backward()\n\n"
        'print("y.grad =", y.grad)\n'
        "autoviz.Stepper(tl, step=-1)"
    ),
    md(
        "## Gradients accumulate\n\n"
        "`.grad` is *added to*, never overwritten. Running backward twice sums the two "
        "gradients. Normally a graph can be walked backwards only once, because its saved "
        "values are freed on the way; `retain_graph=True` keeps them for a second walk. Step "
        "through and watch `w.grad` go from 2 to 4.\n\n" + STEPPER_NOTE
    ),
    code(
        LESSON_LEAVES + "\n\nwith autoviz.trace() as tl:\n    y = w * x\n    z = y + b\n"
        "    z.backward(retain_graph=True)\n    z.backward()\n\n"
        'print("w.grad after two backward calls:", w.grad)\n'
        "autoviz.Stepper(tl, step=-1)"
    ),
    md(
        "## retain_graph: one walk unless you ask\n\n"
        "Without `retain_graph=True` the second walk fails, with PyTorch's message:"
    ),
    code(
        LESSON_LEAVES + "\ny = w * x\nz = y + b\nz.backward()\n"
        "try:\n    z.backward()\nexcept RuntimeError as error:\n"
        '    print("RuntimeError:", error)'
    ),
    md(
        "## Resetting with zero_()\n\n"
        "Because gradients accumulate, a training loop clears them before each backward pass: "
        "`w.grad.zero_()` sets the stored gradient to zero in place (optimisers do it for all "
        "parameters with `zero_grad()`). The timeline records the reset as a step of its own."
    ),
    code(
        LESSON_LEAVES + "\n\nwith autoviz.trace() as tl:\n"
        "    for _ in range(2):\n"
        "        z = w * x + b\n"
        "        z.backward()\n"
        "        print('w.grad =', w.grad)\n"
        "        w.grad.zero_()\n\n"
        'print([step.kind for step in tl.steps if step.kind in ("accumulate", "zero_grad")])'
    ),
    md(
        "## Exercise: how much piled up?\n\n"
        "With `x = 2`, `w = 3`, `b = 1`, we run `z = w * x + b` and call `z.backward("
        "retain_graph=True)` **three** times without resetting. What is `x.grad`?"
    ),
    exercise("my_answer = None  # x.grad after three backward calls", "my_answer = 9"),
    code(LESSON_LEAVES + "\nz = w * x + b\nfor _ in range(3):\n    z.backward(retain_graph=True)"),
    check("What is x.grad after three backward calls?", "x.grad.item()"),
]

LESSONS["05_controlling_gradient_tracking"] = [
    md(
        "# Lesson 5 — Controlling gradient tracking\n\n"
        "Recording a graph costs time and memory, and sometimes a value must not be trained. "
        "autograd lets you choose what is tracked. In the pictures, what is not tracked is grey, "
        "and dashed when tracking was switched off on purpose."
    ),
    code(SETUP),
    md(
        "## requires_grad decides what is tracked\n\n"
        "Tensors are untracked by default. An operation is recorded only if at least one of "
        "its inputs requires grad, and then its result requires grad too. Untracked inputs "
        "appear as grey *constants*."
    ),
    code(
        "x = torch.tensor(2.0)  # data: no gradient wanted\n"
        "w = torch.tensor(3.0, requires_grad=True)\n"
        "z = w * x + 1.0\n"
        'print("x.requires_grad =", x.requires_grad, " z.requires_grad =", z.requires_grad)\n'
        "autoviz.draw(z)"
    ),
    md(
        "## requires_grad_() switches tracking on later\n\n"
        "The trailing underscore means *in place*: the tensor itself changes and becomes a leaf "
        "that gradients will reach."
    ),
    code(
        "x.requires_grad_()\n"
        "z = w * x + 1.0\n"
        "z.backward()\n"
        'print("x.grad =", x.grad, " x.is_leaf =", x.is_leaf)'
    ),
    md(
        "## torch.no_grad(): a block that records nothing\n\n"
        "Inside `with torch.no_grad():` operations run normally but nothing is added to the "
        "graph. This is how evaluation code and optimiser updates avoid building graphs they "
        "will never walk backwards."
    ),
    code(
        "w = torch.tensor(3.0, requires_grad=True)\n"
        "with torch.no_grad():\n"
        "    scale = w * 10\n"
        'print("scale:", scale, " requires_grad =", scale.requires_grad)\n'
        'print("scale.grad_fn =", scale.grad_fn)'
    ),
    md(
        "## detach(): the same numbers, cut off from the graph\n\n"
        "`w.detach()` shares `w`'s data but has no history: gradients do not flow through it."
    ),
    code('frozen = w.detach()\nprint("frozen:", frozen, " requires_grad =", frozen.requires_grad)'),
    md(
        "## Greyed parts of the graph\n\n"
        "Mixing all three in one program shows the effect: the no-grad value and the detached "
        "one are dashed grey boxes, and the backward pass reaches `w` only through the tracked "
        "path.\n\n" + STEPPER_NOTE
    ),
    code(
        "w = torch.tensor(3.0, requires_grad=True)\n"
        "with autoviz.trace() as tl:\n"
        "    tracked = w * 2\n"
        "    with torch.no_grad():\n"
        "        scale = w * 10\n"
        "    frozen = w.detach()\n"
        "    out = tracked * scale + frozen\n"
        "    out.backward()\n\n"
        'print("w.grad =", w.grad)\n'
        "autoviz.Stepper(tl, step=-1)"
    ),
    md(
        "## Exercise: what survives detach?\n\n"
        "With `w = 3.0` (requires grad), compute `out = w * w.detach()` and call "
        "`out.backward()`. What is `w.grad`? (Only one of the two factors is tracked.)"
    ),
    exercise("my_answer = None  # w.grad for out = w * w.detach()", "my_answer = 3"),
    code(
        "w = torch.tensor(3.0, requires_grad=True)\nout = w * w.detach()\nout.backward()\n"
        "autoviz.draw(out)"
    ),
    check("What is w.grad for out = w * w.detach()?", "w.grad.item()"),
]

LESSONS["06_tensors_and_broadcasting"] = [
    md(
        "# Lesson 6 — Tensors and broadcasting\n\n"
        "So far every tensor held one number. The graph works the same for whole arrays: each "
        "node then carries a *shape*, and the gradient of a tensor always has the same shape as "
        "the tensor itself."
    ),
    code(SETUP),
    md(
        "## Shapes on the graph\n\n"
        "A batch of inputs times a weight matrix, plus a bias: the boxes show each tensor's "
        "shape next to its first values."
    ),
    code(
        "torch.manual_seed(0)\n"
        "X = torch.randn(4, 3)  # 4 examples, 3 features: data, no gradient\n"
        "W = torch.randn(3, 2, requires_grad=True)\n"
        "bias = torch.tensor([0.5, -1.0], requires_grad=True)\n"
        "H = X @ W + bias\n"
        "loss = H.sum()\n"
        'print("H.shape =", H.shape)\n'
        "autoviz.draw(loss)"
    ),
    md(
        "## Broadcasting going forward\n\n"
        "`X @ W` has shape `(4, 2)` but `bias` has shape `(2,)`. Broadcasting lets the addition "
        "go ahead by using the same bias row for each of the 4 examples, without copying it."
    ),
    code(
        "XW = X @ W\n"
        'print("X @ W:", tuple(XW.shape), " bias:", tuple(bias.shape), '
        '" sum:", tuple((XW + bias).shape))\n'
        'print("what the addition added to each row:")\n'
        "print((XW + bias) - XW)"
    ),
    md(
        "## The reduction in backward\n\n"
        "Going backward, the addition hands back a gradient of shape `(4, 2)`, one row per "
        "example. But `bias.grad` must have `bias`'s shape, `(2,)`. Since the bias was used "
        "four times, its gradient is the **sum** of the four rows. The timeline shows this "
        "reduction as a step of its own, with both shapes.\n\n" + STEPPER_NOTE
    ),
    code(
        "with autoviz.trace() as tl:\n"
        "    H = X @ W + bias\n"
        "    loss = H.sum()\n"
        "    loss.backward()\n\n"
        "reduce_step = next(k for k, s in enumerate(tl.steps) if s.kind == 'reduce')\n"
        "print(tl.steps[reduce_step].caption)\n"
        'print("bias.grad =", bias.grad)\n'
        "autoviz.Stepper(tl, step=reduce_step)"
    ),
    md(
        "## Exercise: the bias gradient\n\n"
        "Now take 10 examples: `X = torch.randn(10, 3)`, the same `W` and `bias`, and "
        "`loss = (X @ W + bias).sum()`. What is `bias.grad[0]` after `loss.backward()`?"
    ),
    exercise("my_answer = None  # bias.grad[0] with 10 examples", "my_answer = 10"),
    code(
        "W.grad, bias.grad = None, None\n"
        "X = torch.randn(10, 3)\n"
        "loss = (X @ W + bias).sum()\n"
        "loss.backward()"
    ),
    check("What is bias.grad[0] with 10 examples?", "bias.grad[0].item()"),
]

LESSONS["07_training_a_tiny_network"] = [
    md(
        "# Lesson 7 — Training a tiny network\n\n"
        "Everything so far comes together in training: a model's parameters are leaves, a loss "
        "is the scalar we call `backward()` on, and an optimiser uses the gradients in `.grad` "
        "to nudge the parameters. Each iteration builds a fresh graph."
    ),
    code(SETUP + "\nimport matplotlib.pyplot as plt\nfrom autoviz import nn"),
    md(
        "## A model is a Module of Parameters\n\n"
        "`nn.Linear` holds a weight and a bias as `nn.Parameter`s: tensors that require grad "
        "and are leaves, found for you by `model.parameters()`. `nn.Sequential` chains layers."
    ),
    code(
        "torch.manual_seed(0)\n"
        "model = nn.Sequential(nn.Linear(1, 4), nn.Tanh(), nn.Linear(4, 1))\n"
        "for name, p in model.named_parameters():\n"
        '    print(f"{name}: shape {tuple(p.shape)}, leaf={p.is_leaf}, '
        'parameter={isinstance(p, nn.Parameter)}")'
    ),
    md(
        "## A loss and an optimiser\n\n"
        "We fit the line `y = 2x + 0.5` from 16 points. `nn.MSELoss` measures how far the "
        "predictions are; `optim.SGD` subtracts `lr × grad` from each parameter."
    ),
    code(
        "X = torch.linspace(-1, 1, 16).reshape(16, 1)\n"
        "Y = 2 * X + 0.5\n"
        "loss_fn = nn.MSELoss()\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)"
    ),
    md(
        "## The module-grouped graph\n\n"
        "Drawing the loss of a model groups the nodes by the module that made them, so the "
        "picture has the shape of the network: a dashed box per module, named by its path in "
        "the model (`model.0` is the first layer). The parameters are blue leaves like any other: "
        "`model.0.weight`, `model.0.bias`, …"
    ),
    code(
        "loss = loss_fn(model(X), Y)\n"
        'autoviz.draw(loss, rankdir="TB")  # top to bottom: the layers stack up'
    ),
    md(
        "A bigger model would not fit on the screen, so modules can be *collapsed* into one "
        "block each, showing the shapes going in and out: `depth=1` collapses everything below "
        "the top-level modules, and `expand=` opens the ones you want to look inside."
    ),
    code('autoviz.draw(loss, depth=1, expand=["model.0"], rankdir="TB")'),
    md(
        "## The graph is rebuilt on every iteration\n\n"
        "The training step is: clear old gradients, run the model (a new graph), backward "
        "(gradients into the parameters, graph freed), update the parameters under `no_grad`. "
        "Tracing two iterations shows two separate graphs, one per iteration.\n\n" + STEPPER_NOTE
    ),
    code(
        "def train_step():\n"
        "    optimizer.zero_grad()\n"
        "    loss = loss_fn(model(X), Y)\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    return loss.item()\n"
        "\n"
        "with autoviz.trace() as tl:\n"
        "    for _ in range(2):\n"
        "        train_step()\n"
        "\n"
        'graphs = sorted({s.details.get("graph", 0) for s in tl.steps})\n'
        'print(tl, "graphs:", graphs)\n'
        "autoviz.Stepper(tl, step=-1)"
    ),
    md(
        "## The loss curve\n\n"
        "Run a couple of hundred steps and plot the loss: it should fall towards zero."
    ),
    code(
        "losses = [train_step() for _ in range(200)]\n"
        "plt.figure(figsize=(5, 3))\n"
        "plt.plot(losses)\n"
        'plt.xlabel("iteration")\n'
        'plt.ylabel("MSE loss")\n'
        'plt.yscale("log")\n'
        "plt.show()\n"
        'print(f"loss: {losses[0]:.4f} -> {losses[-1]:.4f}")'
    ),
    md(
        "## Exercise: one SGD step by hand\n\n"
        "A parameter `p = 1.0` has `p.grad = 0.5` and the learning rate is `0.1`. What is `p` "
        "after `optimizer.step()`?"
    ),
    exercise("my_answer = None  # p after one SGD step", "my_answer = 0.95"),
    code(
        "p = nn.Parameter(torch.tensor(1.0))\n"
        "p.grad = torch.tensor(0.5)\n"
        "torch.optim.SGD([p], lr=0.1).step()"
    ),
    check("What is p after one SGD step?", "p.item()"),
]

LESSONS["08_pytorch_bridge"] = [
    md(
        "# Lesson 8 — The same graph in real PyTorch\n\n"
        "Everything in the earlier lessons ran on autoviz's own engine. Here the very same "
        "pictures are drawn from **real PyTorch**: autoviz reads the graph torch recorded "
        "(`grad_fn`, `next_functions`) and watches torch's own backward pass.\n\n"
        "This lesson needs PyTorch. If it is not installed, the first cell says so and stops; "
        "install its CPU build, which is all these lessons need (`pip install torch`; on Linux, "
        "where pip's default is a CUDA build of several GB, take the CPU-only command from "
        "PyTorch's install page), and restart the kernel. The other lessons run without it."
    ),
    code(
        "import importlib.util\n"
        "\n"
        "import autoviz\n"
        "from autoviz.tracing.explain import explain\n"
        "from autoviz.tracing.questions import Question\n"
        "\n"
        "\n"
        "class NoPyTorch(Exception):\n"
        '    """Stops the lesson with one plain sentence instead of a traceback."""\n'
        "\n"
        "    def _render_traceback_(self):\n"
        "        return [str(self)]\n"
        "\n"
        "\n"
        'if importlib.util.find_spec("torch") is None:\n'
        "    raise NoPyTorch(\n"
        '        "PyTorch is not installed here, so this lesson cannot run. Install "\n'
        '        "its CPU build (`pip install torch`; on Linux the CPU-only command from "\n'
        '        "PyTorch\'s install page), restart the kernel and run again."\n'
        '        " Lessons 1-7 do not need it."\n'
        "    )\n"
        "import torch  # the real one this time\n"
        "\n"
        'print("PyTorch", torch.__version__)'
    ),
    md(
        "## The lesson's example in PyTorch\n\n"
        "The code is word for word the code of lesson 1; only the import differs."
    ),
    code(
        LESSON_LEAVES + "\ny = w * x\nz = y + b\n"
        'print(f"Result z: {z}")\n'
        "print(z.grad_fn, z.grad_fn.next_functions)\n"
        "autoviz.draw(z)"
    ),
    md(
        "## Stepping through torch's own backward pass\n\n"
        "`autoviz.trace_torch()` records a timeline while real torch code runs: the forward "
        "operations in the order they ran, and the backward nodes in the order torch's engine "
        "executed them, with the gradient on each edge.\n\n" + STEPPER_NOTE
    ),
    code(
        LESSON_LEAVES + "\n\nwith autoviz.trace_torch() as tl:\n    y = w * x\n    z = y + b\n"
        "    z.backward()\n\n"
        "for k, step in enumerate(tl.steps):\n"
        "    print(k, explain(tl, k))\n"
        "autoviz.Stepper(tl, step=-1)"
    ),
    md(
        "## The same graph in both engines\n\n"
        "Run the lesson once with autoviz's engine and once with PyTorch, recording both: the "
        "nodes, the steps with their explanations, and the gradients come out the same. What "
        "you learnt in lessons 1-7 is what PyTorch does."
    ),
    code(
        "import autoviz as engine\n"
        "\n"
        "\n"
        "def lesson(library, tracer):\n"
        "    x = library.tensor(2.0, requires_grad=True)\n"
        "    w = library.tensor(3.0, requires_grad=True)\n"
        "    b = library.tensor(1.0, requires_grad=True)\n"
        "    with tracer() as timeline:\n"
        "        y = w * x\n"
        "        z = y + b\n"
        "        z.backward()\n"
        "    return timeline\n"
        "\n"
        "\n"
        "ours, theirs = lesson(engine, autoviz.trace), lesson(torch, autoviz.trace_torch)\n"
        "for what, seen in [\n"
        '    ("nodes", lambda t: [(n.kind, n.name) for n in t.nodes]),\n'
        '    ("steps", lambda t: [s.caption for s in t.steps]),\n'
        '    ("gradients", lambda t: [(n.name, n.grad) for n in t[-1].nodes]),\n'
        "]:\n"
        '    print(f"same {what}:", seen(ours) == seen(theirs))\n'
        "print(seen(theirs))"
    ),
    md(
        "## Exercise: a real torch gradient\n\n"
        "In real PyTorch, with `x = 2.0` and `w = 3.0`, compute `z = (w * x - 5).relu()` and "
        "call `z.backward()`. What is `w.grad`? (Is the input of relu positive?)"
    ),
    exercise("my_answer = None  # w.grad for z = relu(w * x - 5)", "my_answer = 2"),
    code(
        "x = torch.tensor(2.0, requires_grad=True)\n"
        "w = torch.tensor(3.0, requires_grad=True)\n"
        "with autoviz.trace_torch() as tl:\n"
        "    z = (w * x - 5).relu()\n"
        "    z.backward()\n"
        "tl.draw(step=-1)"
    ),
    check("What is w.grad for z = relu(w * x - 5)?", "w.grad.item()"),
]


def predict(intro, program, placeholder, solution):
    """A predict-then-reveal section: a tensor program traced, one of its quiz questions
    asked (cell tagged "predict"), the learner's answer (an exercise), its check, then the
    step that shows the answer."""
    return [
        md("## Predict, then see\n\n" + intro),
        ("predict", program + "\nprint(question.prompt)\nprint(question.note())"),
        exercise(f"my_prediction = None  # {placeholder}", f"my_prediction = {solution}"),
        (
            "check",
            "right, verdict = question.check(my_prediction, first_try=True)\n"
            "print(verdict)  # not quite? a hint: change your answer and run this cell again",
        ),
        md(
            "Then see it: the answer, and the step that reveals it. "
            "`autoviz.Stepper(tl_q, quiz=True)` asks every question of this program the same "
            "way, a hint after a wrong try and the answer after a second."
        ),
        code("print(question.reveal_text())\nautoviz.Stepper(tl_q, step=step)"),
    ]


# One tensor program per lesson, asked about before its step shows the answer.
PREDICT = {
    "01_computation_graphs": predict(
        "Only some tensors of a graph keep a gradient. Before backward runs, predict which "
        "ones will have a `.grad`: the quiz asks, checks your answer and says why.",
        "t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "with autoviz.trace() as tl_q:\n"
        "    doubled = t * 2\n"
        "    total = doubled.sum()\n"
        "    total.backward()\n"
        'step, question = next(iter(tl_q.questions({"kinds": ["which-grad"]}).items()))',
        "a list of names, such as ['doubled']",
        '["t"]',
    ),
    "02_dynamic_graphs": predict(
        "A loop that doubles a tensor three times records three multiplications. Predict "
        "one element of the gradient that reaches `v`.",
        "v = torch.tensor([1.0, -0.5], requires_grad=True)\n"
        "with autoviz.trace() as tl_q:\n"
        "    g = v\n"
        "    for _ in range(3):\n"
        "        g = g * 2\n"
        "    total = g.sum()\n"
        "    total.backward()\n"
        '*_, (step, question) = tl_q.questions({"kinds": ["element"]}).items()',
        "a number",
        "8.0",
    ),
    "03_forward_and_backward": predict(
        "The chain rule works element by element on tensors too: upstream × local at each "
        "position. Predict one element before the step shows it.",
        "weights = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)\n"
        "inputs = torch.tensor([3.0, 1.0, -4.0])\n"
        "with autoviz.trace() as tl_q:\n"
        "    scaled = weights * inputs\n"
        "    score = (scaled * scaled).sum()\n"
        "    score.backward()\n"
        '*_, (step, question) = tl_q.questions({"kinds": ["element"]}).items()',
        "a number",
        "18.0",
    ),
    "04_leaf_tensors_and_gradients": predict(
        "Two backward passes, no `zero_grad()` in between: predict what `param.grad` holds "
        "after the second one.",
        "param = torch.tensor([2.0, -1.0], requires_grad=True)\n"
        "with autoviz.trace() as tl_q:\n"
        "    for _ in range(2):\n"
        "        square = (param * param).sum()\n"
        "        square.backward()  # no zero_grad in between\n"
        'step, question = next(iter(tl_q.questions({"kinds": ["accumulation"]}).items()))',
        "a number",
        "8.0",
    ),
    "05_controlling_gradient_tracking": predict(
        "Data that needs no gradient, a leaf that does, and a `detach()`ed copy: predict "
        "which of them have a `.grad` once backward is done.",
        "leaf = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "data = torch.tensor([0.5, 0.5])  # no gradient wanted\n"
        "with autoviz.trace() as tl_q:\n"
        "    mixed = leaf * data\n"
        "    cut = mixed.detach()\n"
        "    total = (mixed * cut).sum()\n"
        "    total.backward()\n"
        'step, question = next(iter(tl_q.questions({"kinds": ["which-grad"]}).items()))',
        "a list of names, such as ['data', 'cut']",
        '["leaf"]',
    ),
    "06_tensors_and_broadcasting": predict(
        "`shift` of shape `(3,)` is added to every row of a `(5, 3)` tensor. Predict the "
        "dimension its gradient is summed over on the way back.",
        "rows = torch.ones(5, 3)\n"
        "shift = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)\n"
        "with autoviz.trace() as tl_q:\n"
        "    shifted = rows + shift\n"
        "    shifted.sum().backward()\n"
        'step, question = next(iter(tl_q.questions({"kinds": ["broadcast"]}).items()))',
        "a dimension, such as 1",
        "0",
    ),
    "07_training_a_tiny_network": predict(
        "One SGD step moves each weight against its gradient. Predict one weight's new value "
        "before the update step shows it.",
        "torch.manual_seed(0)\n"
        "tiny = nn.Linear(2, 1)\n"
        "sgd = torch.optim.SGD(tiny.parameters(), lr=0.5)\n"
        "xs, ys = torch.randn(4, 2), torch.randn(4, 1)\n"
        "with autoviz.trace() as tl_q:\n"
        "    error = ((tiny(xs) - ys) ** 2).mean()\n"
        "    error.backward()\n"
        "    sgd.step()\n"
        'step, question = next(iter(tl_q.questions({"kinds": ["update"]}).items()))',
        "a number",
        "0.8375",
    ),
    "08_pytorch_bridge": predict(
        "The quiz reads real PyTorch's graph too. Predict the shape of the gradient that "
        "reaches the weight `weight`.",
        "torch.manual_seed(0)\n"
        "weight = torch.randn(3, 2, requires_grad=True)\n"
        "batch = torch.randn(4, 3)\n"
        "with autoviz.trace_torch() as tl_q:\n"
        "    total = (batch @ weight).tanh().sum()\n"
        "    total.backward()\n"
        '*_, (step, question) = tl_q.questions({"kinds": ["shape"]}).items()',
        "a shape, such as (4, 2)",
        "(3, 2)",
    ),
}


def with_predictions(lessons: dict) -> dict:
    """Each lesson with its predict-then-reveal section just before its exercise."""
    out = {}
    for name, specs in lessons.items():
        at = next(i for i, s in enumerate(specs) if s[0] == "md" and s[1].startswith("## Exercise"))
        out[name] = specs[:at] + PREDICT[name] + specs[at:]
    return out


def cell(index, name, spec):
    kind, source = spec[0], spec[1]
    if kind == "md":
        made = nbformat.v4.new_markdown_cell(source)
    else:
        made = nbformat.v4.new_code_cell(source)
    made.id = f"{name[:2]}-{index:02d}"
    if kind == "exercise":
        made.metadata = {"tags": ["exercise"], "autoviz": {"solution": spec[2]}}
    elif kind in ("check", "predict"):
        made.metadata = {"tags": [kind]}
    return made


def notebook(name, specs):
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    nb.cells = [cell(i, name, spec) for i, spec in enumerate(specs)]
    return nb


def main(argv):
    force = "--force" in argv
    for name, specs in with_predictions(LESSONS).items():
        path = NOTEBOOKS / f"{name}.ipynb"
        if path.exists() and not force:
            print(f"{path} exists: edit it in Jupyter, or pass --force to overwrite")
            continue
        nbformat.write(notebook(name, specs), path)
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
