"""A batch_first MultiheadAttention given its key_padding_mask as (seq, batch), the layout of a seq-first codebase
the mask builder came from; batch 4, sequence 10."""

import torch


def padding_mask(lengths: torch.Tensor, seq_len: int) -> torch.Tensor:
    steps = torch.arange(seq_len).unsqueeze(1)
    return steps >= lengths.unsqueeze(0)  # (seq, batch): True where padded


def main() -> None:
    torch.manual_seed(0)
    attention = torch.nn.MultiheadAttention(embed_dim=16, num_heads=4, batch_first=True)
    x = torch.randn(4, 10, 16, requires_grad=True)
    lengths = torch.tensor([10, 7, 5, 9])
    out, _ = attention(x, x, x, key_padding_mask=padding_mask(lengths, 10))
    out.sum().backward()
    print(out.shape)
