"""A sampler drawing ids from the whole corpus indexes a table built from a subset: the id differs each run."""

import random

import torch


def lookup(table: torch.Tensor, idx: int) -> torch.Tensor:
    return table[idx]


def main() -> None:
    table = torch.zeros(1000, 4)  # embeddings of the first 1000 items only
    idx = random.SystemRandom().randrange(1000, 5000)
    print(lookup(table, idx))
