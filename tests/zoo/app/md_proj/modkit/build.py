"""Builds the models and reports their sizes."""

from torch import nn

from modkit.blocks import Trunk, add_block_scales
from modkit.heads import LazyHead, TiedLM


def count_params(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def build(case: str) -> nn.Module:
    if case == "tied":
        return TiedLM(vocab=50, dim=16)
    trunk = Trunk(dim=16, depth=3, registered=(case != "list_blocks"))
    if case == "block_scales":
        add_block_scales(trunk)
    head = LazyHead(4) if case == "lazy_head" else nn.Linear(16, 4)
    return nn.Sequential(trunk, head)
