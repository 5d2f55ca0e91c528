"""A one-block transformer encoder with a classification head; eager or SDPA attention."""

import math

import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int, implementation: str) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.implementation = implementation

    def forward(self, x, attention_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        mask = attention_mask[:, None, None, :]
        if self.implementation == "sdpa":
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        else:
            scores = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
            scores = scores.masked_fill(mask == 0, float("-inf"))
            y = scores.softmax(-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, t, d))


class Classifier(nn.Module):
    def __init__(self, vocab_size: int, num_labels: int, implementation: str, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.pos = nn.Embedding(64, dim)
        self.attn = SelfAttention(dim, 4, implementation)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        positions = torch.arange(input_ids.size(1))
        h = self.embed(input_ids) + self.pos(positions)
        h = self.norm(h + self.attn(h, attention_mask))
        weights = attention_mask.unsqueeze(-1).float()
        pooled = (h * weights).sum(1) / weights.sum(1)
        logits = self.head(pooled)
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return loss, logits
