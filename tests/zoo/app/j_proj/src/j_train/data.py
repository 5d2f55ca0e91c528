"""Synthetic token sequences with a label each; the training split is truncated to the model's length."""

import torch
from torch.utils.data import Dataset


class Sequences(Dataset):
    def __init__(self, n: int, longest: int, vocab: int, classes: int, seed: int, truncate_to: int | None = None):
        g = torch.Generator().manual_seed(seed)
        lengths = torch.randint(longest // 2, longest + 1, (n,), generator=g).tolist()
        self.tokens = [torch.randint(1, vocab, (n_tok,), generator=g) for n_tok in lengths]
        self.labels = torch.randint(0, classes, (n,), generator=g)
        self.truncate_to = truncate_to

    def __len__(self) -> int:
        return len(self.tokens)

    def __getitem__(self, i: int) -> dict:
        tokens = self.tokens[i]
        if self.truncate_to is not None:
            tokens = tokens[: self.truncate_to]
        return {"index": i, "tokens": tokens, "label": self.labels[i]}


def pad_collate(batch: list[dict], max_len: int) -> dict:
    """Pads every sequence into a (batch, max_len) block of zeros (the padding id)."""
    tokens = torch.zeros(len(batch), max_len, dtype=torch.long)
    for row, sample in enumerate(batch):
        tokens[row, : len(sample["tokens"])] = sample["tokens"]
    return {
        "index": torch.tensor([s["index"] for s in batch]),
        "tokens": tokens,
        "label": torch.stack([s["label"] for s in batch]),
    }
