"""Losses. The focal loss's per-class weights are sized by the head's class count."""

import torch
import torch.nn.functional as F

from layoutkit.heads import NUM_CLASSES

CLASS_WEIGHTS = torch.ones(NUM_CLASSES)


def focal_loss(logits, y, gamma: float = 2.0):
    ce = F.cross_entropy(logits, y, weight=CLASS_WEIGHTS, reduction="none")
    return ((1 - torch.exp(-ce)) ** gamma * ce).mean()
