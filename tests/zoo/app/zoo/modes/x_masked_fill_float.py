"""Attention scores masked at padding positions; the padding mask was built as a float (multiplied into the
embeddings elsewhere) and passed to masked_fill as it is."""

import torch

PAD = 0


def attention(tokens: torch.Tensor, dim: int = 16) -> torch.Tensor:
    emb = torch.nn.Embedding(50, dim, padding_idx=PAD)(tokens)
    pad_mask = (tokens == PAD).float()
    scores = emb @ emb.transpose(1, 2) / dim**0.5
    scores = scores.masked_fill(pad_mask[:, None, :], float("-inf"))
    return scores.softmax(-1) @ emb


def main() -> None:
    tokens = torch.tensor([[5, 7, 9, PAD, PAD], [3, 4, 8, 2, PAD]])
    out = attention(tokens)
    print(tuple(out.shape))
