"""A batch reshaped to a fixed sequence length: the batch's element count varies with the data each run."""

import random

import torch


def to_sequences(batch: torch.Tensor) -> torch.Tensor:
    return batch.view(-1, 128)


def main() -> None:
    n = random.SystemRandom().randrange(129, 4000)
    if n % 128 == 0:
        n += 1
    print(to_sequences(torch.zeros(n)).shape)
