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
    "AddcmulBackward0": "{0} + value × {1} × {2}",
    "AddcdivBackward0": "{0} + value × {1} / {2}",
    "PowBackward0": "{0} ** {1}",
    "PowBackward1": "{0} ** {1}",
    "PowBackward2": "{1} ** {0}",
    "RsubBackward1": "{1} - {0}",
    "RsubBackward0": "{1} - {0}",
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
    "MaskedFillBackward1": "{0}.masked_fill(mask, {1})",
    "ZeroBackward0": "{0}.zero_()",
    "FillBackward2": "{0}.fill_(value)",
    "FillBackward3": "{0}.fill_({1})",
    "CopySlices": "{0} with {1} written into a part of it",
    "AsStridedBackward0": "the part of {0} a view reads, taken again after {0} changed in place",
    "Invalid": "the part of {0} a piece of split reads, after {0} changed in place",
    "IndexPutBackward0": "{0} with {1} written at the indices",
    "ViewBackward0": "{0}.view({shape})",
    "UnsafeViewBackward0": "{0}.view({shape})",
    "ReshapeAliasBackward0": "{0}.reshape({shape})",
    "ExpandBackward0": "{0}.expand({shape})",
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
    "VarMeanBackward0": "torch.var_mean({0}, …)[k]",
    "StdMeanBackward0": "torch.std_mean({0}, …)[k]",
    "LinalgVectorNormBackward0": "{0}.norm({args})",
    "DistBackward0": "torch.dist({0}, {1})",
    "CdistBackward0": "torch.cdist({0}, {1})",
    "EuclideanDistBackward0": "torch.cdist({0}, {1})",
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
    "NotImplemented": "{0} // {1}",
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
    "RsubBackward0": ("−{g} × alpha", "{g}"),
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
    "MaskedFillBackward1": (
        "{g} with 0 where the mask filled it",
        "Σ {g} where the mask filled it",
    ),
    "ZeroBackward0": ("0: zero_ overwrote every value",),
    "FillBackward2": ("0: fill_ overwrote every value",),
    "FillBackward3": ("0: fill_ overwrote every value", "Σ {g}"),
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
    "VarBackward0": ("{g} × 2 × ({0} − mean) / (N − {correction}){along}",),
    "StdBackward0": ("{g} × ({0} − mean) / ((N − {correction}) × {out}){along}",),
    "VarMeanBackward0": (
        "the var's gradient × 2 × ({0} − mean) / (N − correction), plus the mean's / N",
    ),
    "StdMeanBackward0": (
        "the std's gradient × ({0} − mean) / ((N − correction) × std), plus the mean's / N",
    ),
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
    "AsStridedBackward0": ("{g} added into zeros at the view's elements",),
    "Invalid": ("none: torch refuses to go back through this piece",),
    "DistBackward0": (
        "{g} × ∂‖d‖/∂d, d = {0} − {1} (for the 2-norm: d / {out})",
        "−{g} × ∂‖d‖/∂d, d = {0} − {1} (for the 2-norm: −d / {out})",
    ),
    "EuclideanDistBackward0": (
        "{g} / {out} (0 where {out} is 0) times ({0}'s row − each {1} row), summed",
        "{g} / {out} (0 where {out} is 0) times ({1}'s row − each {0} row), summed",
    ),
    "CdistBackward0": (
        "Σ over {1}'s rows of {g} × ∂‖d‖/∂d, d the rows' difference (2-norm: d / distance)",
        "−Σ over {0}'s rows of {g} × ∂‖d‖/∂d, d the rows' difference (2-norm: d / distance)",
    ),
    "AddcmulBackward0": ("{g}", "{g} × value × {2}", "{g} × value × {1}"),
    "AddcdivBackward0": ("{g}", "{g} × value / {2}", "−{g} × value × {1} / {2}²"),
    "IndexPutBackward0": ("{g} with 0 at the indices written", "{g} at the indices written"),
    "CopyBackwards": ("0: its old values were overwritten", "{g}"),
    "GatherBackward0": (
        "{g} added into zeros at the gathered positions along dim {dim} "
        "(twice-gathered ones summed)",
    ),
    "SortBackward0": ("{g} put back at each element's place before sorting",),
    "TopkBackward0": ("{g} put back at the top k's places, 0 elsewhere",),
    # one node for all the pieces: it gets each piece's gradient at once
    "SplitBackward0": ("each piece's gradient put back at its slice, 0 for a piece none reached",),
    "SplitWithSizesBackward0": (
        "each piece's gradient put back at its slice, 0 for a piece none reached",
    ),
    "UnbindBackward0": ("each slice's gradient put back in its place, 0 for a slice none reached",),
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
# nn's layers, activations, losses and poolings (engine/ops' families beside the core ones).
_POOLS = {
    "AvgPool2DBackward0": ("avg_pool2d", "{g} / the window's size, spread over each window"),
    "AvgPool3DBackward0": ("avg_pool3d", "{g} / the window's size, spread over each window"),
    "AdaptiveAvgPool2DBackward0": ("adaptive_avg_pool2d", "{g} spread evenly over each region"),
    "AdaptiveAvgPool3DBackward0": ("adaptive_avg_pool3d", "{g} spread evenly over each region"),
    "MaxPool2DWithIndicesBackward0": ("max_pool2d", "{g} to each window's max, 0 elsewhere"),
    "MaxPool3DWithIndicesBackward0": ("max_pool3d", "{g} to each window's max, 0 elsewhere"),
    "AdaptiveMaxPool2DBackward0": ("adaptive_max_pool2d", "{g} to each region's max, 0 elsewhere"),
    "AdaptiveMaxPool3DBackward0": ("adaptive_max_pool3d", "{g} to each region's max, 0 elsewhere"),
    "FractionalMaxPool2DBackward0": (
        "fractional_max_pool2d",
        "{g} to each pseudo-random window's max, 0 elsewhere",
    ),
    "FractionalMaxPool3DBackward0": (
        "fractional_max_pool3d",
        "{g} to each pseudo-random window's max, 0 elsewhere",
    ),
    "MaxUnpool2DBackward0": ("max_unpool2d", "{g} read back at the indices the values went to"),
    "MaxUnpool3DBackward0": ("max_unpool3d", "{g} read back at the indices the values went to"),
}
_PADS = {
    "ConstantPadNdBackward0": ("pad", "{g} with the padding cut off"),
    "ReflectionPad1DBackward0": ("reflection_pad1d", "{g} with each mirrored border added back"),
    "ReflectionPad2DBackward0": ("reflection_pad2d", "{g} with each mirrored border added back"),
    "ReflectionPad3DBackward0": ("reflection_pad3d", "{g} with each mirrored border added back"),
    "ReplicationPad1DBackward0": ("replication_pad1d", "{g} with each copied border added back"),
    "ReplicationPad2DBackward0": ("replication_pad2d", "{g} with each copied border added back"),
    "ReplicationPad3DBackward0": ("replication_pad3d", "{g} with each copied border added back"),
}
_ACTIVATIONS = {
    "GeluBackward0": ("gelu", "{g} × (Φ({0}) + {0} × φ({0})), Φ the normal CDF"),
    "SiluBackward0": ("silu", "{g} × σ({0}) × (1 + {0} × (1 − σ({0})))"),
    "MishBackward0": ("mish", "{g} × d/dx (x · tanh(softplus(x))) at {0}"),
    "EluBackward0": ("elu", "{g} where {0} > 0, else {g} × ({out} + α)"),
    "CeluBackward0": ("celu", "{g} where {0} > 0, else {g} × exp({0} / α)"),
    "SoftplusBackward0": ("softplus", "{g} × σ(β × {0})"),
    "LogSigmoidBackward0": ("logsigmoid", "{g} × (1 − σ({0}))"),
    "HardtanhBackward0": ("hardtanh", "{g} where {0} is inside [min, max], else 0"),
    "HardsigmoidBackward0": ("hardsigmoid", "{g} / 6 where −3 < {0} < 3, else 0"),
    "HardswishBackward0": (
        "hardswish",
        "{g} × (2{0} + 3) / 6 where −3 < {0} < 3, {g} above, 0 below",
    ),
    "HardshrinkBackward0": ("hardshrink", "{g} where |{0}| > λ, else 0"),
    "SoftshrinkBackward0": ("softshrink", "{g} where |{0}| > λ, else 0"),
    "ThresholdBackward0": ("threshold", "{g} where {0} > the threshold, else 0"),
    "RreluWithNoiseBackward0": ("rrelu", "{g} where {0} ≥ 0, else {g} × the slope drawn for it"),
    "GluBackward0": ("glu", "{g} × σ(b) to the first half a, {g} × a × σ(b)(1 − σ(b)) to b"),
}
for table in (_POOLS, _PADS, _ACTIVATIONS):
    for op, (function, rule) in table.items():
        EXPRESSIONS[op] = f"{function}({{0}})"
        GRADIENTS[op] = (rule,)
# the nodes of in-place activations (`F.elu(h, inplace=True)` records EluBackward1): alike
for op in ("LeakyRelu", "Elu", "Celu", "Threshold", "RreluWithNoise"):
    EXPRESSIONS[op + "Backward1"] = EXPRESSIONS[op + "Backward0"]
    GRADIENTS[op + "Backward1"] = GRADIENTS[op + "Backward0"]
EXPRESSIONS |= {
    "ConvolutionBackward0": "conv({0}, {1}) + {2}",
    "PreluKernelBackward0": "prelu({0}, {1})",
    "HuberLossBackward0": "huber_loss({0}, {1})",
    "SmoothL1LossBackward0": "smooth_l1_loss({0}, {1})",
    "SoftMarginLossBackward0": "soft_margin_loss({0}, {1})",
    "MultiMarginLossBackward0": "multi_margin_loss({0}, {1})",
    "MultilabelMarginLossBackward0": "multilabel_margin_loss({0}, {1})",
    "NativeLayerNormBackward0": "layer_norm({all})",
    "NativeGroupNormBackward0": "group_norm({all})",
    "NormBackward1": "{0}.norm({args})",
    "IndexSelectBackward0": "{0}.index_select(dim, index)",
    "EmbeddingBagBackward0": "embedding_bag({all})",
    "PdistBackward0": "pdist({0})",
    "TransposeBackward1": "{0}.transpose_(…)",
    "UnsafeSplitBackward0": "{0}.split(…)[k]",
    "PackPaddedSequenceBackward0": "pack_padded_sequence({0}, lengths)",
    "TrilinearBackward0": "bilinear({0}, {1}, {2})",
    "MkldnnRnnLayerBackward0": "rnn_layer({all})",
}
GRADIENTS |= {
    "ConvolutionBackward0": (
        "{g} convolved back with the flipped kernel {1} (a transposed convolution)",
        "{g} correlated with the input {0}, per kernel position",
        "{g} summed over the batch and positions, per output channel",
    ),
    "PreluKernelBackward0": ("{g} where {0} > 0, else {g} × {1}", "Σ {g} × {0} where {0} ≤ 0"),
    "HuberLossBackward0": (
        "{g} × clamp({0} − {1}, −δ, δ) / {n}",
        "−{g} × clamp({0} − {1}, −δ, δ) / {n}",
    ),
    "SmoothL1LossBackward0": ("{g} × clamp(({0} − {1}) / β, −1, 1) / {n}", "the negative of {0}'s"),
    "SoftMarginLossBackward0": (
        "−{g} × {1} × σ(−{1} × {0}) / {n}",
        "−{g} × {0} × σ(−{1} × {0}) / {n}",
    ),
    "MultiMarginLossBackward0": (
        "{g} / C to each class whose margin is violated, minus their count at the target",
    ),
    "MultilabelMarginLossBackward0": (
        "{g} / C to each violated pair, + to the others, − to targets",
    ),
    "NativeLayerNormBackward0": (
        "{g} through the normalisation: (N·{g}w − Σ{g}w − x̂·Σ({g}w·x̂)) / (N·σ) per row",
        "Σ {g} × x̂ over the batch",
        "Σ {g} over the batch",
    ),
    "NativeGroupNormBackward0": (
        "{g} through each group's normalisation, as layer_norm's per group",
        "Σ {g} × x̂ per channel",
        "Σ {g} per channel",
    ),
    "NormBackward1": ("{g} × {0} / {out} along dim {dim} (for the 2-norm)",),
    "IndexSelectBackward0": (
        "{g} added into zeros at the selected rows (twice-picked ones summed)",
    ),
    "EmbeddingBagBackward0": (
        "{g} of each bag added into the rows the bag picked (÷ its size for mode='mean')",
    ),
    "PdistBackward0": ("Σ over pairs of {g} × (xᵢ − xⱼ) / dist, + to i and − to j",),
    "TransposeBackward1": ("{g} transposed back",),
    "UnsafeSplitBackward0": (
        "each gate's gradient put back at its slice, 0 for a gate none reached",
    ),
    "PackPaddedSequenceBackward0": ("{g} placed back at each sequence's steps, 0 in the padding",),
    "TrilinearBackward0": ("{g} × {1}ᵀ {2}-weights", "{g} × {0} and {2}", "{g} × {0}ᵀ {1}"),
    "MkldnnRnnLayerBackward0": (
        "{g} back through time: each step's gates and its weights, in reverse",
    ),
}
# Pointwise math and two-input math (engine/ops' pointwise and arithmetic families).
_POINTWISE = {
    "AsinBackward0": ("asin", "{g} / √(1 − {0}²)"),
    "AcosBackward0": ("acos", "−{g} / √(1 − {0}²)"),
    "AtanBackward0": ("atan", "{g} / (1 + {0}²)"),
    "AsinhBackward0": ("asinh", "{g} / √({0}² + 1)"),
    "AcoshBackward0": ("acosh", "{g} / √({0}² − 1)"),
    "AtanhBackward0": ("atanh", "{g} / (1 − {0}²)"),
    "SinhBackward0": ("sinh", "{g} × cosh({0})"),
    "CoshBackward0": ("cosh", "{g} × sinh({0})"),
    "ErfBackward0": ("erf", "{g} × 2/√π × exp(−{0}²)"),
    "ErfcBackward0": ("erfc", "−{g} × 2/√π × exp(−{0}²)"),
    "ErfinvBackward0": ("erfinv", "{g} × √π/2 × exp({out}²)"),
    "LgammaBackward0": ("lgamma", "{g} × digamma({0})"),
    "DigammaBackward0": ("digamma", "{g} × polygamma(1, {0})"),
    "I0Backward0": ("i0", "{g} × i1({0})"),
    "SpecialI0EBackward0": ("i0e", "{g} × (i1e({0}) − sign({0}) × {out})"),
    "SpecialI1Backward0": ("i1", "{g} × (i0({0}) − {out} / {0}) (½ at 0)"),
    "SpecialI1EBackward0": ("i1e", "{g} × (i0e({0}) − {out} × (sign({0}) + 1 / {0})) (½ at 0)"),
    "SpecialNdtriBackward0": ("ndtri", "{g} × √(2π) × exp({out}² / 2)"),
    "SpecialLogNdtrBackward0": ("log_ndtr", "{g} × exp(−({out} + {0}² / 2)) / √(2π)"),
    "SpecialErfcxBackward0": ("erfcx", "{g} × (2 × {0} × {out} − 2/√π)"),
    "SpecialEntrBackward0": ("entr", "−{g} × (1 + log({0}))"),
    "SincBackward0": ("sinc", "{g} × (cos(π{0}) − sinc({0})) / {0} (0 at 0)"),
    "Deg2RadBackward0": ("deg2rad", "{g} × π / 180"),
    "Rad2DegBackward0": ("rad2deg", "{g} × 180 / π"),
    "FracBackward0": ("frac", "{g}"),
    "RoundBackward1": ("round", _ZERO[0]),
    "SgnBackward0": ("sgn", _ZERO[0]),
    "LogitBackward0": (
        "logit",
        "{g} / ({0} × (1 − {0})), 0 outside (eps, 1 − eps) when eps is given",
    ),
    "NanToNumBackward0": ("nan_to_num", "{g} where {0} was finite, else 0"),
    "SqueezeBackward2": ("squeeze", "{g} with the squeezed dims put back"),
}
for op, (function, rule) in _POINTWISE.items():
    EXPRESSIONS.setdefault(op, f"{function}({{0}})")
    GRADIENTS[op] = (rule,)
EXPRESSIONS |= {
    "Atan2Backward0": "atan2({0}, {1})",
    "HypotBackward0": "hypot({0}, {1})",
    **dict.fromkeys(("CopysignBackward0", "CopysignBackward1"), "copysign({0}, {1})"),
    "FmaxBackward0": "fmax({0}, {1})",
    "FminBackward0": "fmin({0}, {1})",
    "LogaddexpBackward0": "logaddexp({0}, {1})",
    "Logaddexp2Backward0": "logaddexp2({0}, {1})",
    **dict.fromkeys(("XlogyBackward0", "XlogyBackward1", "XlogyBackward2"), "xlogy({0}, {1})"),
    **dict.fromkeys(("SpecialXlog1PyBackward0", "SpecialXlog1PyBackward1"), "xlog1py({0}, {1})"),
    "SpecialXlog1PyBackward2": "xlog1py({0}, {1})",
    **dict.fromkeys(("SpecialZetaBackward0", "SpecialZetaBackward1"), "zeta({0}, {1})"),
    "SpecialZetaBackward2": "zeta({0}, {1})",
    "DivBackward2": "div({0}, {1}, rounding_mode=…)",
    "ClampBackward0": "{0}.clamp({1}, {2})",
    "LerpBackward0": "lerp({0}, {1}, {2})",
    "LerpBackward1": "lerp({0}, {1}, {2})",
}
GRADIENTS |= {
    "Atan2Backward0": ("{g} × {1} / ({0}² + {1}²)", "−{g} × {0} / ({0}² + {1}²)"),
    "HypotBackward0": ("{g} × {0} / {out}", "{g} × {1} / {out}"),
    **dict.fromkeys(
        ("CopysignBackward0", "CopysignBackward1"),
        ("{g} × sign({0}) × sign of {1} (0 where {0} is 0)", "0"),
    ),
    "FmaxBackward0": ("{g} where {0} is the larger (or {1} is NaN)", "{g} where {1} is"),
    "FminBackward0": ("{g} where {0} is the smaller (or {1} is NaN)", "{g} where {1} is"),
    "LogaddexpBackward0": ("{g} × exp({0} − {out})", "{g} × exp({1} − {out})"),
    "Logaddexp2Backward0": ("{g} × 2^({0} − {out})", "{g} × 2^({1} − {out})"),
    **dict.fromkeys(
        ("XlogyBackward0", "XlogyBackward1", "XlogyBackward2"),
        ("{g} × log({1}) (0 where {0} is 0)", "{g} × {0} / {1}"),
    ),
    **dict.fromkeys(
        ("SpecialXlog1PyBackward0", "SpecialXlog1PyBackward1", "SpecialXlog1PyBackward2"),
        ("{g} × log(1 + {1}) (0 where {0} is 0)", "{g} × {0} / (1 + {1})"),
    ),
    **dict.fromkeys(
        ("SpecialZetaBackward0", "SpecialZetaBackward1", "SpecialZetaBackward2"),
        ("not defined (PyTorch has no derivative in x)", "−{g} × {0} × zeta({0} + 1, {1})"),
    ),
    "DivBackward2": ("0: a rounded quotient is flat almost everywhere",) * 2,
    "ClampBackward0": (
        "{g} where {0} is inside [{1}, {2}], else 0",
        "{g} where {1} is the bound used",
        "{g} where {2} is the bound used",
    ),
    "LerpBackward0": ("{g} × (1 − weight)", "{g} × weight", "{g} × ({1} − {0})"),
    "LerpBackward1": ("{g} × (1 − {2})", "{g} × {2}", "{g} × ({1} − {0})"),
}
# Reshaping, selecting, scattering, linear algebra and attention (engine/ops' shape, indexing,
# linalg and layer families).
_ONE_INPUT = {
    "AmaxBackward0": ("amax", "{g} shared evenly by the elements equal to the max, 0 elsewhere"),
    "AminBackward0": ("amin", "{g} shared evenly by the elements equal to the min, 0 elsewhere"),
    "MedianBackward0": ("median", "{g} to the median's position, 0 elsewhere"),
    "MedianBackward1": ("median", "{g} to each median's position along the dim, 0 elsewhere"),
    "NanmedianBackward0": (
        "nanmedian",
        "{g} to the median's position (NaNs left out), 0 elsewhere",
    ),
    "NanmedianBackward1": (
        "nanmedian",
        "{g} to each median's position along the dim (NaNs left out), 0 elsewhere",
    ),
    "KthvalueBackward0": ("kthvalue", "{g} to each k-th smallest value's position, 0 elsewhere"),
    "ModeBackward0": ("mode", "{g} to a position of each most frequent value, 0 elsewhere"),
    "PoissonBackward0": ("poisson", "0: a Poisson sample has no gradient with respect to its rate"),
    "NansumBackward0": ("nansum", "{g} copied to each element that is not NaN, 0 to the NaNs"),
    "CumprodBackward0": ("cumprod", "Σ over later positions of {g} × {out} / {0} along the dim"),
    "LogcumsumexpBackward0": ("logcumsumexp", "Σ over later positions of {g} × exp({0} − {out})"),
    "DiagonalBackward0": ("diagonal", "{g} placed on the diagonal of zeros"),
    "TraceBackward0": ("trace", "{g} on the diagonal, 0 elsewhere"),
    "DiagEmbedBackward0": ("diag_embed", "{g}'s diagonal"),
    "TrilBackward0": ("tril", "{g} with the part above the diagonal set to 0"),
    "TriuBackward0": ("triu", "{g} with the part below the diagonal set to 0"),
    "RollBackward0": ("roll", "{g} rolled back"),
    "UnfoldBackward0": ("unfold", "each window's {g} added back at its place (overlaps sum)"),
    "Rot90Backward0": ("rot90", "{g} rotated back"),
    "TakeBackward0": (
        "take",
        "{g} added into zeros at the taken positions (twice-taken ones summed)",
    ),
    "MaskedSelectBackward0": (
        "masked_select",
        "{g} placed back where the mask is True, 0 elsewhere",
    ),
    "IndexFillBackward0": ("index_fill", "{g} with 0 at the filled positions"),
    "ScatterBackward1": ("scatter", "{g} with 0 where the value was scattered"),
    "PixelShuffleBackward0": ("pixel_shuffle", "{g} unshuffled back"),
    "PixelUnshuffleBackward0": ("pixel_unshuffle", "{g} shuffled back"),
    "ChannelShuffleBackward0": ("channel_shuffle", "{g} with its channels put back"),
    "Im2ColBackward0": ("unfold", "{g}'s columns added back into each patch's place (col2im)"),
    "Col2ImBackward0": ("fold", "{g} read out into columns again (im2col)"),
    "AffineGridGeneratorBackward0": ("affine_grid", "Σ {g} × the base grid's coordinates"),
    "CtcLossBackward0": ("ctc_loss", "{g} × (softmax − the alignments' posterior) per time step"),
    "LinalgDetBackward0": ("det", "{g} × {out} × {0}⁻ᵀ"),
    "LinalgInvExBackward0": ("inv", "−{out}ᵀ @ {g} @ {out}ᵀ"),
    "LinalgCholeskyExBackward0": (
        "cholesky",
        "L⁻ᵀ Φ(Lᵀ {g}) L⁻¹, Φ the lower triangle with half its diagonal, L = {out}",
    ),
    "CholeskyInverseBackward0": ("cholesky_inverse", "−({out} ({g} + {g}ᵀ) {out}) @ {0}"),
    # one node for all the outputs: it gets the gradient of each at once
    "LinalgEighBackward0": (
        "eigh",
        "the eigenvalues' and eigenvectors' gradients through V (G∘F) Vᵀ",
    ),
    "LinalgQrBackward0": ("qr", "Q's and R's gradients through the QR derivative"),
    "LinalgSvdBackward0": ("svd", "U's, S's and Vh's gradients through the SVD derivative"),
}
for mode in ("Nearest1D", "Nearest2D", "Nearest3D", "NearestExact1D", "NearestExact2D"):
    _ONE_INPUT[f"Upsample{mode}Backward0"] = ("interpolate", "{g} summed over each copied block")
for mode in ("NearestExact3D", "Linear1D", "Bilinear2D", "Bicubic2D", "Trilinear3D"):
    _ONE_INPUT[f"Upsample{mode}Backward0"] = ("interpolate", "{g} spread back by the weights")
for op, (function, rule) in _ONE_INPUT.items():
    EXPRESSIONS.setdefault(op, f"{function}({{0}})")
    GRADIENTS[op] = (rule,)
EXPRESSIONS |= {
    "BaddbmmBackward0": "{0} + {1} @ {2}",
    "GridSampler2DBackward0": "grid_sample({0}, {1})",
    "IndexAddBackward0": "{0}.index_add(dim, index, {1})",
    "IndexCopyBackward0": "{0}.index_copy(dim, index, {1})",
    "ScatterAddBackward0": "{0}.scatter_add(dim, index, {1})",
    "ScatterBackward0": "{0}.scatter(dim, index, {1})",
    "GridSampler3DBackward0": "grid_sample({0}, {1})",
    "IndexReduceBackward0": "{0}.index_reduce(dim, index, {1}, reduce)",
    "ScatterReduceBackward0": "{0}.scatter_reduce(dim, index, {1}, reduce)",
    "SegmentReduceBackward0": "segment_reduce({0}, reduce, lengths)",
    "MedianBackward1": "{0}.median(dim).values",
    "NanmedianBackward1": "{0}.nanmedian(dim).values",
    "KthvalueBackward0": "{0}.kthvalue(k).values",
    "ModeBackward0": "{0}.mode().values",
    "IgammaBackward0": "igamma({0}, {1})",
    "IgammacBackward0": "igammac({0}, {1})",
    "PolygammaBackward0": "polygamma(n, {0})",
    "MvlgammaBackward0": "mvlgamma({0}, p)",
    "MulBackward1": "{0} * {1}",
    "AddBackward1": "{0} + {1}",
    "LinalgCrossBackward0": "cross({0}, {1})",
    "LinalgSolveExBackward0": "solve({0}, {1})",
    "LinalgSolveTriangularBackward0": "solve_triangular({0}, {1})",
    "TriangularSolveBackward0": "triangular_solve({1}, {0}).solution",
    "CholeskySolveBackward0": "cholesky_solve({0}, {1})",
    "LinalgLstsqBackward0": "lstsq({0}, {1}).solution",
    "ThresholdBackwardBackward0": "threshold_backward({0}, {1})",
    "ScaledDotProductFlashAttentionForCpuBackward0": "scaled_dot_product_attention({0}, {1}, {2})",
}
GRADIENTS |= {
    "BaddbmmBackward0": ("{g} × beta", "{g} @ {2}ᵀ × alpha", "{1}ᵀ @ {g} × alpha"),
    "GridSampler2DBackward0": (
        "{g} spread back to the pixels each sample read",
        "{g} × the image's slope there",
    ),
    "GridSampler3DBackward0": (
        "{g} spread back to the voxels each sample read",
        "{g} × the volume's slope there",
    ),
    "IndexReduceBackward0": (
        "{g}, times the reduce's derivative (prod, mean, amax, amin) at the indexed rows",
        "{g} at the indexed rows, times the reduce's derivative",
    ),
    "ScatterReduceBackward0": (
        "{g}, times the reduce's derivative (sum, prod, mean, amax, amin) where values went",
        "{g} gathered at the scattered positions, times the reduce's derivative",
    ),
    "SegmentReduceBackward0": (
        "{g} of each segment spread over its elements, times the reduce's derivative",
    ),
    "IgammaBackward0": (
        "not defined (PyTorch has no derivative in a)",
        "{g} × {1}^({0} − 1) e^(−{1}) / Γ({0})",
    ),
    "IgammacBackward0": (
        "not defined (PyTorch has no derivative in a)",
        "−{g} × {1}^({0} − 1) e^(−{1}) / Γ({0})",
    ),
    "PolygammaBackward0": ("{g} × polygamma(n + 1, {0})",),
    "MvlgammaBackward0": ("{g} × Σⱼ digamma({0} − j/2)",),
    "MulBackward1": ("{g} × {1}", "{g} × {0}"),
    "AddBackward1": ("{g}", "{g}"),
    "IndexAddBackward0": ("{g}", "{g} at the indexed rows"),
    "IndexCopyBackward0": ("{g} with 0 at the copied rows", "{g} at the indexed rows"),
    "ScatterAddBackward0": ("{g}", "{g} gathered at the scattered positions"),
    "ScatterBackward0": (
        "{g} with 0 where values were scattered",
        "{g} gathered at those positions",
    ),
    "LinalgCrossBackward0": ("{1} × {g} (cross products)", "{g} × {0}"),
    "LinalgSolveExBackward0": ("−{out} solved against {g}: −A⁻ᵀ {g} {out}ᵀ", "A⁻ᵀ {g}"),
    "LinalgSolveTriangularBackward0": ("−(A⁻ᵀ {g}) {out}ᵀ in A's triangle", "A⁻ᵀ {g}"),
    "TriangularSolveBackward0": ("−(A⁻ᵀ {g}) {out}ᵀ in A's triangle", "A⁻ᵀ {g}"),
    "CholeskySolveBackward0": (
        "(L Lᵀ)⁻¹ {g}, L = {1}",
        "−(C + Cᵀ) @ {1}, C = ((L Lᵀ)⁻¹ {g}) {out}ᵀ",
    ),
    "LinalgLstsqBackward0": ("pinv's derivative at {0} applied to {g} {1}ᵀ", "pinv({0})ᵀ {g}"),
    "ThresholdBackwardBackward0": ("{g} where the input was above the threshold, else 0", "0"),
    "ScaledDotProductFlashAttentionForCpuBackward0": (
        "{g} @ vᵀ through softmax's Jacobian, then @ k / √d",
        "the same through the scores, then ᵀ @ q / √d",
        "the attention weightsᵀ @ {g}",
    ),
}
VARIADIC_NN = ("MkldnnRnnLayerBackward0", "NativeLayerNormBackward0", "NativeGroupNormBackward0")
VARIADIC_NN += ("EmbeddingBagBackward0",)

# floor_divide has no derivative: backward through it raises, as in PyTorch.
GRADIENTS["NotImplemented"] = ("none: backward through {0} // {1} raises",) * 2
# Ops whose inputs vary in number (and layers whose weight and bias are optional): one
# gradient template, the last, serves every input past the others.
VARIADIC = frozenset(["CatBackward0", "StackBackward0", "NativeBatchNormBackward0", *VARIADIC_NN])
# Names PyTorch gives the last node of a matmul that reshapes its result (a vector @ matrix,
# batched inputs): with two inputs, their gradients are the matmul's.
MATMUL_AS = frozenset(["SqueezeBackward4", "UnsafeViewBackward0"])


def expression(op: str, names: list, params: dict | None = None, shape=None) -> str:
    """`x * w`, `X @ Wᵀ + b`, `counts.sum(dim=1, keepdim=True)`: op `op` applied to inputs
    called `names`, with its arguments `params`; `shape`: its result's (a view's)."""
    template = EXPRESSIONS.get(op)
    fields = _fields(template or "", names, params or {})
    if shape is not None:  # view(32, 20) for view(-1, 20): the shape the view made
        fields["shape"] = ", ".join(map(str, shape)) if len(shape) else "()"
    if template is not None and _fits(template, names, fields):
        return template.format(*names[:4], **fields).replace("(, ", "(").replace(", )", ")")
    if op in BINARY and len(names) == 2:
        return f"{names[0]} {BINARY[op]} {names[1]}"
    return f"{FUNCTIONS.get(op, op)}({', '.join(names)})"


def gradient(op: str, index: int, names: list, out: str, upstream: str, count=None, params=None):
    """The gradient `op` sends input `index`, in the names of its inputs; None if unknown."""
    templates = GRADIENTS.get(op)
    if op in MATMUL_AS and len(names) == 2:
        templates = GRADIENTS["MmBackward0"]
    if templates is None:
        return None
    last = len(templates) - 1
    if index > last and op not in VARIADIC:
        return None
    template = templates[min(index, last)]  # a variadic op's last serves every later input
    fields = _fields(template, names, params or {}) | {"i": index}
    if not _fits(template, names, fields):
        return None
    n = "N" if count is None else str(count)
    text = template.format(*names[:4], out=out, g=upstream, n=n, **fields)
    return text.replace("ᵀᵀ", "")  # (Wᵀ)ᵀ = W


def has_rule(op: str, inputs: int) -> bool:
    """Whether `op` has a forward expression and a gradient for each of `inputs` inputs."""
    written = op in EXPRESSIONS or op in FUNCTIONS or op in BINARY
    templates = (
        GRADIENTS["MmBackward0"] if op in MATMUL_AS and inputs == 2 else GRADIENTS.get(op, ())
    )
    return written and (len(templates) >= inputs or (op in VARIADIC and bool(templates)))


def _fields(template: str, names: list, params: dict) -> dict:
    """The fields `template` may use of an op's names and arguments (every name joined only
    where it asks for them all: a stack of 100,000 inputs sends 100,000 gradients)."""
    fields = {key: _word(value) for key, value in params.items()}
    if "correction" in params and params["correction"] is None:
        fields["correction"] = "1"  # torch keeps None for var's and std's default, Bessel's 1
    if "{all}" in template:
        fields["all"] = ", ".join(names)
    fields["args"] = ", ".join(f"{k}={_word(v)}" for k, v in params.items() if _shown(k, v))
    dim = params.get("dim")
    # var and std over every element (dim None) reduce no one dim; N is then all of them
    fields["along"] = f" along dim {_word(dim)}" if dim is not None else ", N every element"
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
    needed = {"dim", "dim0", "dim1", "min", "max", "negative_slope", "correction", "ord", "shape"}
    return all(f"{{{key}}}" not in template or key in fields for key in needed)
