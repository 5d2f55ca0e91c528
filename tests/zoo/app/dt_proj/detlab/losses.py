"""Matching by generalised IoU, a sigmoid focal loss and an L1 box loss, per image."""

import torch
import torch.nn.functional as F

from detlab.boxes import generalized_box_iou


def match(anchors: torch.Tensor, boxes: torch.Tensor, thresh: float = 0.3) -> torch.Tensor:
    """The index of each anchor's ground-truth box, or -1."""
    if boxes.numel() == 0:
        return torch.full((len(anchors),), -1, dtype=torch.long)
    giou = generalized_box_iou(anchors, boxes)
    best, idx = giou.max(dim=1)
    idx[best < thresh] = -1
    idx[giou.argmax(dim=0)] = torch.arange(len(boxes))  # every box keeps its best anchor
    return idx


def focal_loss(logits: torch.Tensor, onehot: torch.Tensor, alpha: float = 0.25, gamma: float = 2.0) -> torch.Tensor:
    p = logits.sigmoid()
    ce = F.binary_cross_entropy_with_logits(logits, onehot, reduction="none")
    pt = p * onehot + (1 - p) * (1 - onehot)
    return (alpha * onehot + (1 - alpha) * (1 - onehot)) * (1 - pt) ** gamma * ce


def image_loss(cls, reg, anchors, target, num_classes: int, clamp_num_pos: bool = True) -> torch.Tensor:
    idx = match(anchors, target["boxes"])
    pos = idx >= 0
    onehot = torch.zeros_like(cls)
    onehot[pos, target["labels"][idx[pos]]] = 1.0
    num_pos = pos.sum().float()
    if clamp_num_pos:
        num_pos = num_pos.clamp(min=1.0)
    loss = focal_loss(cls, onehot).sum() / num_pos
    if pos.any():
        wh = anchors[pos, 2:] - anchors[pos, :2]
        deltas = (target["boxes"][idx[pos]] - anchors[pos]) / wh.repeat(1, 2)
        loss = loss + F.l1_loss(reg[pos], deltas)
    return loss
