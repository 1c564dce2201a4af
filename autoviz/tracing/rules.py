"""What each op computes, in words a lesson uses: its forward expression and, per input, the
gradient its backward sends (PyTorch's derivative formulas, in derivatives.yaml's terms).

Templates name the op's inputs {0}, {1}, {2} (then what it used besides them, such as an
exponent), its result {out}, the upstream gradient {g} and the input's element count {n}.
"""

from .symbols import BINARY, FUNCTIONS

# Forward: how the result is written in code.
EXPRESSIONS = {
    "AddmmBackward0": "{1} @ {2} + {0}",
    "PowBackward0": "{0} ** {1}",
    "PowBackward1": "{0} ** {1}",
    "PowBackward2": "{1} ** {0}",
    "RsubBackward1": "{1} - {0}",
    "DivBackward1": "{0} / {1}",
    "NegBackward0": "-{0}",
    "TBackward0": "{0}.t()",
    "NllLossBackward0": "nll_loss({0}, {1})",
    "NllLoss2DBackward0": "nll_loss({0}, {1})",
    "MseLossBackward0": "mse_loss({0}, {1})",
    "SelectBackward0": "{0}[…]",
    "SliceBackward0": "{0}[…]",
    "IndexBackward0": "{0}[…]",
    "ViewBackward0": "{0}.view(…)",
    "UnsafeViewBackward0": "{0}.view(…)",
    "ReshapeAliasBackward0": "{0}.reshape(…)",
}

# Backward: the gradient sent to each input, by position.
GRADIENTS = {
    "AddBackward0": ("{g}", "{g}"),
    "SubBackward0": ("{g}", "−{g}"),
    "MulBackward0": ("{g} × {1}", "{g} × {0}"),
    "DivBackward0": ("{g} / {1}", "−{g} × {0} / {1}²"),
    "DivBackward1": ("{g} / {1}",),
    "NegBackward0": ("−{g}",),
    "RsubBackward1": ("−{g}",),
    "PowBackward0": ("{g} × {1} × {0} ** ({1} − 1)",),
    "PowBackward1": ("{g} × {1} × {0} ** ({1} − 1)", "{g} × {out} × log({0})"),
    "PowBackward2": ("{g} × {out} × log({1})",),
    "ExpBackward0": ("{g} × {out}",),
    "LogBackward0": ("{g} / {0}",),
    "SqrtBackward0": ("{g} / (2 × {out})",),
    "TanhBackward0": ("{g} × (1 − {out}²)",),
    "SigmoidBackward0": ("{g} × {out} × (1 − {out})",),
    "ReluBackward0": ("{g} × ({0} > 0)",),
    "AbsBackward0": ("{g} × sign({0})",),
    "SinBackward0": ("{g} × cos({0})",),
    "CosBackward0": ("−{g} × sin({0})",),
    "ClampBackward1": ("{g} where {0} is inside the bounds, else 0",),
    "ClampMinBackward0": ("{g} where {0} ≥ the minimum, else 0",),
    "MaximumBackward0": ("{g} where {0} is the larger", "{g} where {1} is the larger"),
    "WhereBackward0": ("{g} where the condition holds, else 0", "{g} where it does not, else 0"),
    "MmBackward0": ("{g} @ {1}ᵀ", "{0}ᵀ @ {g}"),
    "BmmBackward0": ("{g} @ {1}ᵀ", "{0}ᵀ @ {g}"),
    "MvBackward0": ("outer({g}, {1})", "{0}ᵀ @ {g}"),
    "DotBackward0": ("{g} × {1}", "{g} × {0}"),
    "AddmmBackward0": ("{g}", "{g} @ {2}ᵀ", "{1}ᵀ @ {g}"),  # a broadcast bias: summed next
    "SumBackward0": ("{g} copied to each of {0}'s {n} elements",),
    "SumBackward1": ("{g} copied along the summed dimensions",),
    "MeanBackward0": ("{g} / {n} copied to each of {0}'s {n} elements",),
    "MeanBackward1": ("{g} / N copied along the averaged dimensions (N elements each)",),
    "TBackward0": ("{g}ᵀ",),
    "TransposeBackward0": ("{g} transposed back",),
    "PermuteBackward0": ("{g} permuted back",),
    "ViewBackward0": ("{g} reshaped to {0}'s shape",),
    "UnsafeViewBackward0": ("{g} reshaped to {0}'s shape",),
    "ReshapeAliasBackward0": ("{g} reshaped to {0}'s shape",),
    "SqueezeBackward4": ("{g} with its row dimension put back",),
    "UnsqueezeBackward0": ("{g} with the added dimension removed",),
    "SelectBackward0": ("{g} placed into zeros at the selected position",),
    "SliceBackward0": ("{g} placed into zeros at the selected slice",),
    "IndexBackward0": ("{g} added into zeros at the indexed positions",),
    "CloneBackward0": ("{g}",),
    "ToCopyBackward0": ("{g} converted back to {0}'s dtype",),
    "SoftmaxBackward0": ("{out} × ({g} − Σ({g} × {out}) along the softmax dimension)",),
    "LogSoftmaxBackward0": ("{g} − softmax({0}) × Σ {g} along the softmax dimension",),
    "MseLossBackward0": ("{g} × 2 × ({0} − {1}) / {n}", "−{g} × 2 × ({0} − {1}) / {n}"),
    "NllLossBackward0": (
        "−{g} at each row's target class (divided by the number of rows for "
        "reduction='mean'), 0 elsewhere",
    ),
    "BinaryCrossEntropyBackward0": (
        "{g} × ({0} − {1}) / ({0} × (1 − {0})) / {n}",
        "{g} × (log(1 − {0}) − log({0})) / {n}",
    ),
}
GRADIENTS["NllLoss2DBackward0"] = GRADIENTS["NllLossBackward0"]


def expression(op: str, names: list) -> str:
    """`x * w`, `X @ Wᵀ + b`, `tanh(h)`: op `op` applied to inputs called `names`."""
    template = EXPRESSIONS.get(op)
    if template is not None and _fits(template, names):
        return template.format(*names)
    if op in BINARY and len(names) == 2:
        return f"{names[0]} {BINARY[op]} {names[1]}"
    return f"{FUNCTIONS.get(op, op)}({', '.join(names)})"


def gradient(op: str, index: int, names: list, out: str, upstream: str, count=None) -> str | None:
    """The gradient `op` sends input `index`, in the names of its inputs; None if unknown."""
    templates = GRADIENTS.get(op)
    if templates is None or index >= len(templates):
        return None
    template = templates[index]
    if not _fits(template, names):
        return None
    n = "N" if count is None else str(count)
    return template.format(*names, out=out, g=upstream, n=n).replace("ᵀᵀ", "")  # (Wᵀ)ᵀ = W


def _fits(template: str, names: list) -> bool:
    """Whether `template` names only inputs that `names` has."""
    return all(f"{{{i}}}" not in template for i in range(len(names), 4))
