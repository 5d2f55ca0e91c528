"""Flattening a transposed tensor with .view(): its memory is no longer laid out for it."""

import torch


def flatten_frames(seq: torch.Tensor) -> torch.Tensor:
    b = seq.shape[0]
    return seq.transpose(1, 2).view(b, -1)  # [batch, channels, time] -> [batch, time * channels]


def main() -> None:
    print(flatten_frames(torch.randn(2, 8, 16)).shape)
