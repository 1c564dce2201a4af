"""The ops, one family per module. Every op is one small class:

    class Exp(Op):
        '''z = exp(a);  dz/da = z.'''       # what it computes and its derivative
        _backward_name = "ExpBackward0"    # the node PyTorch records (grad_fn's name)
        forward(ctx, a) / backward(ctx, grad)   # on numpy arrays; ctx is the backward node

then, in the same module, the functions PyTorch offers over it (`torch.exp(x, out=None)`), and
last the rules backward follows when it records itself (`create_graph=True`), registered with
`@rule(Exp)`. Tensor methods, in-place variants (`x.exp_()`) and aliases are not written
here: `engine/surface.py` makes them from one table.

    base        Op and its fast paths, broadcasting, dtype rules, dim/axis, out=, in place
    pointwise   arithmetic, powers, exp/log, trigonometry, rounding, clamps, comparisons
    reductions  sum, mean, max/min, prod, cumsum, var/std, norm, logsumexp, softmax
    shape       view/reshape, transpose/permute, (un)squeeze, expand, cat/stack, repeat, flip
    indexing    a[key], assignment into slices, masked_fill, gather, sort/topk, split/chunk
    linalg      matrix products

A new family (convolution and pooling, recurrent layers, losses, activations,
normalisation) is a new module here written the same way: `convolution.py`, `recurrent.py`,
`losses.py`, `activations.py`, `normalization.py`; its public names join the table in
`surface.py` (one row per group of names), and `nn.functional` calls its functions.
"""
