"""Learning-rate schedules: a linear warmup, then cosine decay."""

import torch
from torch.optim import lr_scheduler


def warmup_cosine(opt: torch.optim.Optimizer, warmup: int, total: int) -> lr_scheduler.LRScheduler:
    warm = lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=warmup)
    decay = lr_scheduler.CosineAnnealingLR(opt, T_max=total - warmup)
    milestones = [warmup, total]  # where each phase ends
    return lr_scheduler.SequentialLR(opt, schedulers=[warm, decay], milestones=milestones)
