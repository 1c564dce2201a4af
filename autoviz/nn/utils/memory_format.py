"""Converting convolution weights to channels_last: autoviz keeps one layout (row-major), so
the module is returned unchanged, as PyTorch's is when the format is already the one asked."""


def convert_conv2d_weight_memory_format(module, memory_format):
    return module


def convert_conv3d_weight_memory_format(module, memory_format):
    return module
