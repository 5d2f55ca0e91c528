"""A random sampler: one torch.Generator per study, a config per trial."""

from __future__ import annotations

import torch

from tunekit.space import STUDIES


class RandomSampler:
    def __init__(self, study: str, seed: int = 0) -> None:
        self.space = STUDIES[study]
        self.g = torch.Generator().manual_seed(seed)

    def suggest(self, number: int) -> dict:
        config = {name: dist.sample(self.g) for name, dist in self.space.items()}
        config["number"] = number
        return config
