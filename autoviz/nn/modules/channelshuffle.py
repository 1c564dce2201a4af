"""ChannelShuffle: interleave the channels of groups (ShuffleNet)."""

from .. import functional as F
from .module import Module


class ChannelShuffle(Module):
    """Channels (g, C/g) read out as (C/g, g)."""

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
