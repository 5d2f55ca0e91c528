"""Collation: pad the token ids of a batch to its longest utterance."""

import torch
from torch.nn.utils.rnn import pad_sequence


def pad_batch(batch: list[dict]) -> dict:
    ids = pad_sequence([torch.tensor(b["ids"]) for b in batch], batch_first=True)
    return {"ids": ids, "label": torch.tensor([b["label"] for b in batch])}
