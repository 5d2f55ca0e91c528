"""A small encoder: embeddings, causal self-attention blocks, a classifier head and an auxiliary head."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim: int, heads: int, block_size: int):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.register_buffer("mask", torch.tril(torch.ones(block_size, block_size)).bool())

    def attend(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.heads)
        att = att.masked_fill(~self.mask[:t, :t], float("-inf"))
        return self.proj((att.softmax(-1) @ v).transpose(1, 2).reshape(b, t, d))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attend(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Encoder(nn.Module):
    def __init__(self, vocab: int, classes: int, block_size: int, ctc: bool = False, dim: int = 32, heads: int = 4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(1, 64, dim))
        self.blocks = nn.ModuleList(Block(dim, heads, block_size) for _ in range(2))
        self.head = nn.Linear(dim, classes)
        self.aux_head = nn.Linear(dim, vocab)
        self.down = nn.Conv1d(dim, dim, kernel_size=2, stride=2) if ctc else None

    def forward(self, ids: torch.Tensor):
        x = self.embed(ids) + self.pos[:, : ids.shape[1]]
        for block in self.blocks:
            x = block(x)
        return self.head(x[:, 0]), x

    def frames(self, x: torch.Tensor) -> torch.Tensor:
        """Per-frame log-probabilities over the vocabulary, at half the token rate (for CTC)."""
        return F.log_softmax(self.aux_head(self.down(x.transpose(1, 2)).transpose(1, 2)), -1)
