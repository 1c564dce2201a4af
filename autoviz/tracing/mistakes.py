"""The mistakes learners are known to make about autograd, in one table, and their hints."""

# name -> the hint a wrong answer made this way gets, with the question's facts filled in.
# The recurring confusions of PyTorch's forums: accumulation into .grad, leaf vs non-leaf and
# retain_grad, the sum a broadcast adds in backward, and the chain rule's upstream factor.
MISTAKES = {
    "forgot-accumulation": (
        "That is only what this backward brings. {name}.grad still held {before} from an "
        "earlier backward, and backward adds to .grad, it does not replace it: "
        "zero_grad() is what resets it."
    ),
    "forgot-broadcast-sum": (
        "{name} was broadcast from {small} to {big} going forward, so the gradients of all "
        "its copies are summed (over dim {dims}) back to {name}'s shape {small}."
    ),
    "local-without-upstream": (
        "That is the local derivative alone. The chain rule multiplies it by the upstream "
        "gradient, {upstream} here."
    ),
    "upstream-without-local": (
        "That is the upstream gradient alone. The chain rule multiplies it by the local "
        "derivative {local}."
    ),
    "one-path-only": (
        "{name} is used more than once, so it gets the sum of the gradients of every path: {parts}."
    ),
    "runs-per-output": (
        "{op} runs once per backward pass, not once per output: the engine waits until the "
        "gradients of {names} have all arrived, then calls it once with them together."
    ),
    "mean-without-n": (
        "mean divides by the number of elements, so each of the {n} elements gets upstream / {n}."
    ),
    "transposed-shape": (
        "That is the transposed shape. A gradient always has the shape of the tensor it is for."
    ),
    "output-shape": (
        "That is the shape of the op's output (the upstream gradient). What it sends each "
        "input has that input's shape."
    ),
    "wrong-broadcast-dim": (
        "Summing over dim {dim} would give shape {shape}, not {name}'s shape {small}."
    ),
    "grad-on-non-leaf": (
        "{name} is not a leaf: backward uses its gradient on the way through but does not "
        "keep it in {name}.grad, unless {name}.retain_grad() was called."
    ),
    "grad-without-requires-grad": (
        "{name} does not require grad (requires_grad=False: data, or made from tensors "
        "that need none), so nothing flows into it and {name}.grad stays None."
    ),
    "grad-on-detached": (
        "{name} was made with detach(): it is cut off from the graph, so it gets no gradient."
    ),
    "missed-leaf": (
        "{name} is a leaf made with requires_grad=True (or a parameter) and backward "
        "reaches it, so backward fills {name}.grad."
    ),
    "missed-retain-grad": "{name}.retain_grad() was called, so {name} keeps its .grad.",
    "missed-earlier-grad": (
        "{name}.grad was filled by an earlier backward and nothing has reset it, so it is "
        "still there."
    ),
    "zero-grad-to-zeros": (
        "Since PyTorch 2.0, zero_grad() sets each .grad to None (set_to_none=True); it "
        "fills it with zeros only with set_to_none=False, or by calling .grad.zero_()."
    ),
    "zero-grad-to-none": (
        "This one fills .grad with zeros: set_to_none=False, or .grad.zero_(), keeps the "
        "tensor and writes 0 into it."
    ),
    "zero-grad-unchanged": (
        "Resetting .grad is what it is for: without it the next backward would add to the "
        "old gradient."
    ),
    "update-added": (
        "Gradient descent steps against the gradient: {name} ← {name} − lr × grad, so "
        "an element with a positive gradient goes down."
    ),
    "update-without-lr": "The step is scaled by the learning rate: lr × grad, lr = {lr}.",
    "update-unchanged": "This step changes {name} in place: every element moves by lr × grad.",
    "mask-passes": ("{op} blocks the gradient where its local derivative is 0: {why}"),
    "mask-blocks": "Here the local derivative is not 0: {why}",
}


def mistake(which: str, /, **facts) -> str:
    """The hint for mistake `which` of the table, with the question's `facts` filled in."""
    return MISTAKES[which].format(**facts)
