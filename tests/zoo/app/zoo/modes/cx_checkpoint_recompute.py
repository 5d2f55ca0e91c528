"""Stochastic depth under activation checkpointing: each block is skipped with probability 0.5, decided by
`random.random()` inside the checkpointed function, so the recomputation in backward may take the other branch
than the forward did (torch.utils.checkpoint, non-reentrant)."""

import random

import torch
from torch.utils.checkpoint import checkpoint


class Block(torch.nn.Module):
    def __init__(self, dim: int, drop: float):
        super().__init__()
        self.fc1, self.fc2, self.drop = torch.nn.Linear(dim, dim), torch.nn.Linear(dim, dim), drop

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training and random.random() < self.drop:
            return x
        return x + self.fc2(torch.relu(self.fc1(x)))


def main() -> None:
    random.seed(3)
    torch.manual_seed(0)
    blocks = torch.nn.ModuleList(Block(32, 0.5) for _ in range(6))
    opt = torch.optim.SGD(blocks.parameters(), lr=0.01)
    for step in range(5):
        h = torch.randn(16, 32)
        for block in blocks:
            h = checkpoint(block, h, use_reentrant=False)
        loss = h.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
