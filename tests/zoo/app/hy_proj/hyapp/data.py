"""A synthetic sequence-regression set; its sizes come from the data group."""

import torch
from torch.utils.data import Dataset


class ToySeq(Dataset):
    def __init__(self, cfg):
        self.cfg = cfg
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(cfg.size, cfg.seq_len, cfg.in_dim, generator=g)
        self.y = self.x.sum(dim=(1, 2), keepdim=False).unsqueeze(1) * 0.1

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        x = self.x[i]
        if self.cfg.get("mask_shape") is not None:
            mask = torch.ones(self.cfg.mask_shape)
            x = x * mask[: x.shape[0], : x.shape[1]]
        return x, self.y[i]
