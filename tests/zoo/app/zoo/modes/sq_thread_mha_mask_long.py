"""Validation in a background thread (so training goes on): the attention pooler's key padding mask is taken
from the tokenizer's attention mask, an int64 tensor of ones and zeros, as it is; the thread's error comes back
through `future.result()`."""

from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn

PAD = 0


def batches() -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    out = []
    for _ in range(4):
        ids = torch.randint(1, 50, (8, 12), generator=g)
        ids[:, 9:] = PAD
        out.append(ids)
    return out


def validate(embed: nn.Embedding, attn: nn.MultiheadAttention, data: list[torch.Tensor]) -> float:
    total = 0.0
    with torch.no_grad():
        for ids in data:
            attention_mask = (ids != PAD).long()  # the tokenizer's convention: 1 keep, 0 pad
            x = embed(ids)
            out, _ = attn(x, x, x, key_padding_mask=attention_mask)
            total += out.mean().item()
    return total / len(data)


def main() -> None:
    embed = nn.Embedding(50, 32, padding_idx=PAD)
    attn = nn.MultiheadAttention(32, 4, batch_first=True)
    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(validate, embed, attn, batches())
        print("validation started in a thread", flush=True)
        score = future.result()
    print(f"val {score:.4f}")
