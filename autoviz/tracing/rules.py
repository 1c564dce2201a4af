"""What each op computes, in words a lesson uses: its forward expression and, per input, the
gradient its backward sends (PyTorch's derivative formulas, in derivatives.yaml's terms).

Templates name the op's inputs {0}, {1}, {2} (then what it used besides them, such as an
exponent or embedding's indices), all of them {all}, its result {out}, the upstream gradient
{g}, the input's element count {n}, and the op's arguments (model.Node.params) as {dim},
{keepdim}, …, or all of them written as a call's keywords, {args} (`dim=1, keepdim=True`).
An op whose inputs vary in number (cat, stack) has one gradient template for every input, in
which {i} is the input's position. Every op the engines record has both (a test walks them).
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
    "ReciprocalBackward0": "1 / {0}",
    "TBackward0": "{0}.t()",
    "NllLossBackward0": "nll_loss({0}, {1})",
    "NllLoss2DBackward0": "nll_loss({0}, {1})",
    "MseLossBackward0": "mse_loss({0}, {1})",
    "BinaryCrossEntropyBackward0": "binary_cross_entropy({0}, {1})",
    "BinaryCrossEntropyWithLogitsBackward0": "binary_cross_entropy_with_logits({0}, {1})",
    "EmbeddingBackward0": "{0}[{1}]",
    "GatherBackward0": "{0}.gather({args}, index={1})",
    "SelectBackward0": "{0}[…]",
    "SliceBackward0": "{0}[…]",
    "IndexBackward0": "{0}[…]",
    "MaskedFillBackward0": "{0}.masked_fill(mask, value)",
    "CopySlices": "{0} with {1} written into a part of it",
    "ViewBackward0": "{0}.view(…)",
    "UnsafeViewBackward0": "{0}.view(…)",
    "ReshapeAliasBackward0": "{0}.reshape(…)",
    "ExpandBackward0": "{0}.expand(…)",
    "RepeatBackward0": "{0}.repeat(…)",
    "FlipBackward0": "{0}.flip(…)",
    "PermuteBackward0": "{0}.permute(…)",
    "TransposeBackward0": "{0}.transpose({dim0}, {dim1})",
    "SqueezeBackward0": "{0}.squeeze()",
    "SqueezeBackward1": "{0}.squeeze(…)",
    "UnsqueezeBackward0": "{0}.unsqueeze({dim})",
    "CloneBackward0": "{0}.clone()",
    "AliasBackward0": "{0}",
    "ToCopyBackward0": "{0}.to(…)",
    "CatBackward0": "cat([{all}], {args})",
    "StackBackward0": "stack([{all}], {args})",
    "SplitBackward0": "{0}.split(…)[k]",
    "SplitWithSizesBackward0": "{0}.split([…])[k]",
    "UnbindBackward0": "{0}.unbind()[k]",
    "SortBackward0": "{0}.sort(…).values",
    "TopkBackward0": "{0}.topk(…).values",
    "SumBackward0": "{0}.sum()",
    "SumBackward1": "{0}.sum({args})",
    "MeanBackward0": "{0}.mean()",
    "MeanBackward1": "{0}.mean({args})",
    "MaxBackward1": "{0}.max()",
    "MinBackward1": "{0}.min()",
    "MaxBackward0": "{0}.max({args}).values",
    "MinBackward0": "{0}.min({args}).values",
    "ProdBackward0": "{0}.prod()",
    "ProdBackward1": "{0}.prod({args})",
    "VarBackward0": "{0}.var({args})",
    "StdBackward0": "{0}.std({args})",
    "LinalgVectorNormBackward0": "{0}.norm({args})",
    "LogsumexpBackward0": "{0}.logsumexp({args})",
    "CumsumBackward0": "{0}.cumsum({args})",
    "SoftmaxBackward0": "softmax({0}, {args})",
    "LogSoftmaxBackward0": "log_softmax({0}, {args})",
    "ClampBackward1": "{0}.clamp({args})",
    "ClampMinBackward0": "{0}.clamp({args})",
    "LeakyReluBackward0": "leaky_relu({0}, {args})",
    "WhereBackward0": "where(condition, {0}, {1})",
    "MaximumBackward0": "maximum({0}, {1})",
    "MinimumBackward0": "minimum({0}, {1})",
    "FmodBackward0": "fmod({0}, {1})",
    "RemainderBackward0": "remainder({0}, {1})",
    "NativeBatchNormBackward0": "batch_norm({all})",
    "CopyBackwards": "{0} copied in place",
    "IndexBackwardBackward0": "the gradient of {0}[…], placed back",
}

_ZERO = ("0: its output is a step function, flat almost everywhere",)
_COPIED = "{g} reshaped back to {0}'s shape"

# Backward: the gradient sent to each input, by position.
GRADIENTS = {
    "AddBackward0": ("{g}", "{g}"),
    "SubBackward0": ("{g}", "−{g}"),
    "MulBackward0": ("{g} × {1}", "{g} × {0}"),
    "DivBackward0": ("{g} / {1}", "−{g} × {0} / {1}²"),
    "DivBackward1": ("{g} / {1}",),
    "NegBackward0": ("−{g}",),
    "RsubBackward1": ("−{g}",),
    "ReciprocalBackward0": ("−{g} × {out}²",),
    "PowBackward0": ("{g} × {1} × {0} ** ({1} − 1)",),
    "PowBackward1": ("{g} × {1} × {0} ** ({1} − 1)", "{g} × {out} × log({0})"),
    "PowBackward2": ("{g} × {out} × log({1})",),
    "ExpBackward0": ("{g} × {out}",),
    "Exp2Backward0": ("{g} × {out} × log(2)",),
    "Expm1Backward0": ("{g} × ({out} + 1)",),
    "LogBackward0": ("{g} / {0}",),
    "Log2Backward0": ("{g} / ({0} × log(2))",),
    "Log10Backward0": ("{g} / ({0} × log(10))",),
    "Log1PBackward0": ("{g} / (1 + {0})",),
    "SqrtBackward0": ("{g} / (2 × {out})",),
    "RsqrtBackward0": ("−{g} × {out}³ / 2",),
    "TanhBackward0": ("{g} × (1 − {out}²)",),
    "SigmoidBackward0": ("{g} × {out} × (1 − {out})",),
    "ReluBackward0": ("{g} × ({0} > 0)",),
    "LeakyReluBackward0": ("{g} where {0} > 0, else {g} × {negative_slope}",),
    "AbsBackward0": ("{g} × sign({0})",),
    "SignBackward0": _ZERO,
    "CeilBackward0": _ZERO,
    "FloorBackward0": _ZERO,
    "RoundBackward0": _ZERO,
    "TruncBackward0": _ZERO,
    "SinBackward0": ("{g} × cos({0})",),
    "CosBackward0": ("−{g} × sin({0})",),
    "TanBackward0": ("{g} × (1 + {out}²)",),
    "ClampBackward1": ("{g} where {0} is inside [{min}, {max}], else 0",),
    "ClampMinBackward0": ("{g} where {0} ≥ {min}, else 0",),
    "MaximumBackward0": ("{g} where {0} is the larger", "{g} where {1} is the larger"),
    "MinimumBackward0": ("{g} where {0} is the smaller", "{g} where {1} is the smaller"),
    "FmodBackward0": ("{g}", "−{g} × trunc({0} / {1})"),
    "RemainderBackward0": ("{g}", "−{g} × floor({0} / {1})"),
    "WhereBackward0": ("{g} where the condition holds, else 0", "{g} where it does not, else 0"),
    "MaskedFillBackward0": ("{g} with 0 where the mask filled it",),
    "MmBackward0": ("{g} @ {1}ᵀ", "{0}ᵀ @ {g}"),
    "BmmBackward0": ("{g} @ {1}ᵀ", "{0}ᵀ @ {g}"),
    "MvBackward0": ("outer({g}, {1})", "{0}ᵀ @ {g}"),
    "DotBackward0": ("{g} × {1}", "{g} × {0}"),
    "AddmmBackward0": ("{g}", "{g} @ {2}ᵀ", "{1}ᵀ @ {g}"),  # a broadcast bias: summed next
    "SumBackward0": ("{g} copied to each of {0}'s {n} elements",),
    "SumBackward1": ("{g} copied along dim {dim}{kept}",),
    "MeanBackward0": ("{g} / {n} copied to each of {0}'s {n} elements",),
    "MeanBackward1": ("{g} / N copied along dim {dim}{kept}, N the elements averaged",),
    "MaxBackward1": ("{g} to the elements equal to the max (shared evenly by ties), 0 elsewhere",),
    "MinBackward1": ("{g} to the elements equal to the min (shared evenly by ties), 0 elsewhere",),
    "MaxBackward0": ("{g} to each max's position along dim {dim}{kept}, 0 elsewhere",),
    "MinBackward0": ("{g} to each min's position along dim {dim}{kept}, 0 elsewhere",),
    "ProdBackward0": ("{g} × {out} / {0} (the product of the other elements)",),
    "ProdBackward1": ("{g} × the product of the other elements along dim {dim}",),
    "VarBackward0": ("{g} × 2 × ({0} − mean) / (N − {correction}) along dim {dim}",),
    "StdBackward0": ("{g} × ({0} − mean) / ((N − {correction}) × {out}) along dim {dim}",),
    "LinalgVectorNormBackward0": (
        "{g} × {0} / {out} for the 2-norm (sign({0}) × |{0}|^(p−1) / {out}^(p−1) for p = {ord})",
    ),
    "LogsumexpBackward0": ("{g} × softmax({0}) along dim {dim}",),
    "CumsumBackward0": ("{g} summed from each position to the end along dim {dim}",),
    "SoftmaxBackward0": ("{out} × ({g} − Σ({g} × {out}) along dim {dim})",),
    "LogSoftmaxBackward0": ("{g} − softmax({0}) × Σ {g} along dim {dim}",),
    "TBackward0": ("{g}ᵀ",),
    "TransposeBackward0": ("{g} with dims {dim0} and {dim1} swapped back",),
    "PermuteBackward0": ("{g} permuted back",),
    "ViewBackward0": (_COPIED,),
    "UnsafeViewBackward0": (_COPIED,),
    "ReshapeAliasBackward0": (_COPIED,),
    "AliasBackward0": ("{g}",),
    "SqueezeBackward0": ("{g} with the size-1 dims put back",),
    "SqueezeBackward1": ("{g} with the squeezed dim put back",),
    "SqueezeBackward4": ("{g} with its row dimension put back",),
    "UnsqueezeBackward0": ("{g} with dim {dim} removed",),
    "ExpandBackward0": ("{g} summed over the expanded dims back to {0}'s shape",),
    "RepeatBackward0": ("{g}'s copies summed back to {0}'s shape",),
    "FlipBackward0": ("{g} flipped back",),
    "SelectBackward0": ("{g} placed into zeros at the selected position",),
    "SliceBackward0": ("{g} placed into zeros at the selected slice",),
    "IndexBackward0": ("{g} added into zeros at the indexed positions (twice-picked ones summed)",),
    "IndexBackwardBackward0": ("{g} at the indexed positions",),
    "CopySlices": ("{g} with 0 where {1} was written", "{g} at the part {1} was written into"),
    "CopyBackwards": ("0: its old values were overwritten", "{g}"),
    "GatherBackward0": (
        "{g} added into zeros at the gathered positions along dim {dim} "
        "(twice-gathered ones summed)",
    ),
    "SortBackward0": ("{g} put back at each element's place before sorting",),
    "TopkBackward0": ("{g} put back at the top k's places, 0 elsewhere",),
    "SplitBackward0": ("{g} placed at this piece's slice, 0 elsewhere",),
    "SplitWithSizesBackward0": ("{g} placed at this piece's slice, 0 elsewhere",),
    "UnbindBackward0": ("{g} placed at this slice, 0 elsewhere",),
    "CatBackward0": ("the slice of {g} along dim {dim} where input {i} was placed",),
    "StackBackward0": ("{g}'s slice {i} along dim {dim}",),
    "EmbeddingBackward0": (
        "the rows of {g} added into zeros at the rows {1} picked "
        "(a row picked k times gets the sum of its k gradient rows)",
    ),
    "CloneBackward0": ("{g}",),
    "ToCopyBackward0": ("{g} converted back to {0}'s dtype",),
    "MseLossBackward0": ("{g} × 2 × ({0} − {1}) / {n}", "−{g} × 2 × ({0} − {1}) / {n}"),
    "NllLossBackward0": (
        "−{g} at each row's target class (divided by the number of rows for "
        "reduction='mean'), 0 elsewhere",
    ),
    "BinaryCrossEntropyBackward0": (
        "{g} × ({0} − {1}) / ({0} × (1 − {0})) / {n}",
        "{g} × (log(1 − {0}) − log({0})) / {n}",
    ),
    "BinaryCrossEntropyWithLogitsBackward0": (
        "{g} × (sigmoid({0}) − {1}) / {n}",
        "−{g} × {0} / {n}",
    ),
    "NativeBatchNormBackward0": (
        "{g} through the normalisation: (N·{g} − Σ{g} − x̂·Σ({g}·x̂)) × weight / (N·σ) per channel",
        "Σ {g} × x̂ per channel",
        "Σ {g} per channel",
    ),
}
GRADIENTS["NllLoss2DBackward0"] = GRADIENTS["NllLossBackward0"]
VARIADIC = frozenset(["CatBackward0", "StackBackward0", "NativeBatchNormBackward0"])


def expression(op: str, names: list, params: dict | None = None) -> str:
    """`x * w`, `X @ Wᵀ + b`, `counts.sum(dim=1, keepdim=True)`: op `op` applied to inputs
    called `names`, with its arguments `params`."""
    template = EXPRESSIONS.get(op)
    fields = _fields(names, params or {})
    if template is not None and _fits(template, names, fields):
        return template.format(*names, **fields).replace("(, ", "(").replace(", )", ")")
    if op in BINARY and len(names) == 2:
        return f"{names[0]} {BINARY[op]} {names[1]}"
    return f"{FUNCTIONS.get(op, op)}({', '.join(names)})"


def gradient(op: str, index: int, names: list, out: str, upstream: str, count=None, params=None):
    """The gradient `op` sends input `index`, in the names of its inputs; None if unknown."""
    templates = GRADIENTS.get(op)
    if templates is None:
        return None
    if op in VARIADIC and index >= len(templates):
        index = len(templates) - 1
    if index >= len(templates):
        return None
    template = templates[index]
    fields = _fields(names, params or {}) | {"i": index}
    if not _fits(template, names, fields):
        return None
    n = "N" if count is None else str(count)
    text = template.format(*names, out=out, g=upstream, n=n, **fields)
    return text.replace("ᵀᵀ", "")  # (Wᵀ)ᵀ = W


def has_rule(op: str, inputs: int) -> bool:
    """Whether `op` has a forward expression and a gradient for each of `inputs` inputs."""
    written = op in EXPRESSIONS or op in FUNCTIONS or op in BINARY
    templates = GRADIENTS.get(op, ())
    return written and (len(templates) >= inputs or (op in VARIADIC and bool(templates)))


def _fields(names: list, params: dict) -> dict:
    """The template fields of an op's names and arguments."""
    fields = {key: _word(value) for key, value in params.items()}
    fields["all"] = ", ".join(names)
    fields["args"] = ", ".join(f"{k}={_word(v)}" for k, v in params.items() if _shown(k, v))
    dim = params.get("dim")
    fields["kept"] = "" if params.get("keepdim", True) or dim is None else " (the dim put back)"
    return fields


def _shown(key: str, value) -> bool:
    """Whether an argument is worth writing in a call (a default keepdim=False is not)."""
    return value is not None and not (key == "keepdim" and value is False)


def _word(value) -> str:
    if isinstance(value, list):
        return str(value[0]) if len(value) == 1 else "(" + ", ".join(map(str, value)) + ")"
    return str(value)


def _fits(template: str, names: list, fields: dict) -> bool:
    """Whether `template` names only inputs that `names` has, and arguments that are known."""
    if any(f"{{{i}}}" in template for i in range(len(names), 4)):
        return False
    needed = {"dim", "dim0", "dim1", "min", "max", "negative_slope", "correction", "ord"}
    return all(f"{{{key}}}" not in template or key in fields for key in needed)
