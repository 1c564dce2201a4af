"""Short symbols for PyTorch's backward-node names: `MulBackward0` is `*`."""

BINARY = {
    "AddBackward0": "+",
    "SubBackward0": "-",
    "MulBackward0": "*",
    "MulBackward1": "*",  # by a number, inside torch's composite functions (special.ndtr)
    "AddBackward1": "+",
    "DivBackward0": "/",
    "PowBackward0": "**",
    "PowBackward1": "**",
    "MmBackward0": "@",
    "MvBackward0": "@",
    "DotBackward0": "@",
    "BmmBackward0": "@",
    "SqueezeBackward4": "@",
    "UnsafeViewBackward0": "@",
}

FUNCTIONS = {
    "PowBackward0": "pow",
    "PowBackward2": "pow",
    "NegBackward0": "neg",
    "RsubBackward1": "rsub",
    "ReciprocalBackward0": "1/x",
    "ReluBackward0": "relu",
    "TanhBackward0": "tanh",
    "SigmoidBackward0": "sigmoid",
    "ExpBackward0": "exp",
    "LogBackward0": "log",
    "SqrtBackward0": "sqrt",
    "AbsBackward0": "abs",
    "SinBackward0": "sin",
    "CosBackward0": "cos",
    "SumBackward0": "sum",
    "SumBackward1": "sum",
    "MeanBackward0": "mean",
    "MeanBackward1": "mean",
    "MaxBackward0": "max",
    "MaxBackward1": "max",
    "MinBackward0": "min",
    "MinBackward1": "min",
    "SoftmaxBackward0": "softmax",
    "LogSoftmaxBackward0": "log_softmax",
    "ViewBackward0": "view",
    "TBackward0": "t",
    "PermuteBackward0": "permute",
    "TransposeBackward0": "transpose",
    "SelectBackward0": "[i]",
    "SliceBackward0": "[a:b]",
    "IndexBackward0": "[idx]",
    "CatBackward0": "cat",
    "StackBackward0": "stack",
    "AddmmBackward0": "linear",
    "MseLossBackward0": "mse_loss",
    "NllLossBackward0": "nll_loss",
    "CeilBackward0": "ceil",
    "FloorBackward0": "floor",
    "RoundBackward0": "round",
    "TruncBackward0": "trunc",
    "SignBackward0": "sign",
    "TanBackward0": "tan",
    "Exp2Backward0": "exp2",
    "Expm1Backward0": "expm1",
    "Log2Backward0": "log2",
    "Log10Backward0": "log10",
    "Log1PBackward0": "log1p",
    "RsqrtBackward0": "rsqrt",
}


def plain(name: str) -> str:
    """A node's name without torch's C++ namespace (`torch::autograd::CopySlices` is
    CopySlices), as drawings and rules name it."""
    return name.removeprefix("torch::autograd::")


def symbol(op: str) -> str:
    """The short form of a backward-node name, or the name itself when there is none."""
    return BINARY.get(op) or FUNCTIONS.get(op) or op


# Ops whose output element i depends only on input element i: their local derivative is an
# array the shape of the input, worth showing beside the gradient.
ELEMENTWISE = frozenset(
    [
        "AddBackward0",
        "SubBackward0",
        "RsubBackward1",
        "MulBackward0",
        "DivBackward0",
        "NegBackward0",
        "ReciprocalBackward0",
        "PowBackward0",
        "PowBackward1",
        "PowBackward2",
        "ExpBackward0",
        "LogBackward0",
        "SqrtBackward0",
        "AbsBackward0",
        "SinBackward0",
        "CosBackward0",
        "TanhBackward0",
        "SigmoidBackward0",
        "ReluBackward0",
        "ClampBackward1",
        "MaximumBackward0",
        "WhereBackward0",
    ]
)
