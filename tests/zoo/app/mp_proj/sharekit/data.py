"""Token shards: one flat file of int32 tokens, read through mmap, cut into fixed windows."""

import mmap
import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset


def write_tokens(n: int, vocab: int = 500) -> str:
    path = os.path.join(tempfile.mkdtemp(prefix="sharekit_"), "tokens.bin")
    g = torch.Generator().manual_seed(0)
    torch.randint(0, vocab, (n,), generator=g, dtype=torch.int32).numpy().tofile(path)
    return path


class TokenWindows(Dataset):
    """Windows of `block` tokens; the file is mapped once, here, so every window is a cheap slice."""

    def __init__(self, path: str, block: int):
        self.block = block
        with open(path, "rb") as f:
            self.mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        self.n = len(self.mm) // 4 // (block + 1)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        start = i * (self.block + 1) * 4
        w = torch.frombuffer(bytearray(self.mm[start : start + (self.block + 1) * 4]), dtype=torch.int32).long()
        return w[:-1], w[1:]


def loader(path: str, block: int, workers: int, context: str | None) -> DataLoader:
    return DataLoader(
        TokenWindows(path, block),
        batch_size=8,
        shuffle=True,
        num_workers=workers,
        multiprocessing_context=context,
    )
