"""A token id beyond the vocabulary (a tokenizer larger than the model's table) into nn.Embedding on CPU."""

import torch

from zoo.data import quiet_torch


def embed(table, ids):
    return table(ids)


def main() -> None:
    quiet_torch()
    print(embed(torch.nn.Embedding(10, 4), torch.tensor([[1, 2, 12]])))
