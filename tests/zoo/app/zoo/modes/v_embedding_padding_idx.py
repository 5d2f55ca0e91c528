"""A token embedding whose padding index is set to the vocabulary's size (the pad token appended after the
vocabulary was counted), so it lies outside the table."""

import torch

VOCAB = ["<unk>", "the", "a", "cat", "sat", "mat"]


def build(vocab: list) -> torch.nn.Embedding:
    pad_index = len(vocab)  # "<pad>" goes after the last word
    return torch.nn.Embedding(len(vocab), 16, padding_idx=pad_index)


def main() -> None:
    embedding = build(VOCAB)
    print(embedding(torch.tensor([[1, 3, 4]])).shape)
