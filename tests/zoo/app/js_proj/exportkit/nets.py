"""The tagger's networks."""

import functools

import torch
import torch.nn.functional as F
from torch import nn

# the leaky activation every block shares, its slope fixed once
leaky = functools.partial(F.leaky_relu, negative_slope=0.1)


class Tagger(nn.Module):
    def __init__(self, features: int = 8, classes: int = 3):
        super().__init__()
        self.body = nn.Linear(features, 16)
        self.head = nn.Linear(16, classes)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))

    def predict(self, x):
        return self.forward(x).argmax(-1)


class LeakyTagger(Tagger):
    def forward(self, x):
        return self.head(leaky(self.body(x)))


class LengthPooler(nn.Module):
    """Mean over each sequence's valid frames, padded to the longest length in the batch."""

    def __init__(self, features: int = 8):
        super().__init__()
        self.proj = nn.Linear(features, 8)

    def forward(self, frames, lengths):
        longest = int(lengths.max().item())
        out = torch.zeros(frames.shape[0], longest, 8)
        out[:, :longest] = self.proj(frames[:, :longest])
        return out.sum(1) / lengths.unsqueeze(1)
