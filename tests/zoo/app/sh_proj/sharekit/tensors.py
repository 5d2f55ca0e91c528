"""The shared model and the replay buffer."""

import torch
from torch import nn


def policy(depth: int = 48) -> nn.Module:
    """A deep narrow policy: many small parameters, each its own storage once shared."""
    torch.manual_seed(0)
    layers = []
    for _ in range(depth):
        layers += [nn.Linear(8, 8), nn.Tanh()]
    return nn.Sequential(*layers, nn.Linear(8, 2))


class Replay:
    """Transitions collected from the actors, grown in place as they arrive."""

    def __init__(self) -> None:
        self.obs = torch.empty(0, 8)
        self.n = 0

    def add(self, batch: torch.Tensor) -> None:
        if self.n == 0:
            self.obs = batch  # the first batch, as received, becomes the buffer
        else:
            self.obs.resize_(self.n + len(batch), 8)
            self.obs[self.n :] = batch
        self.n += len(batch)
