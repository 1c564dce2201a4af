"""The implementations behind `torch.nn.functional`, one module per family of layers."""
