"""Residual MLP blocks and the trunk that stacks them."""

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + torch.relu(self.fc(x))


class Trunk(nn.Module):
    """`registered=False` keeps the blocks in a plain Python list (the way the first version did)."""

    def __init__(self, dim: int, depth: int, registered: bool = True) -> None:
        super().__init__()
        blocks = [Block(dim) for _ in range(depth)]
        self.blocks = nn.ModuleList(blocks) if registered else blocks

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for blk in self.blocks:
            x = blk(x)
        return x


def add_block_scales(trunk: nn.Module) -> None:
    """A learnable output scale per block (LayerScale-like), named after the block it scales."""
    for name, mod in list(trunk.named_modules()):
        if isinstance(mod, Block):
            trunk.register_parameter(f"{name}.scale", nn.Parameter(torch.ones(1)))
