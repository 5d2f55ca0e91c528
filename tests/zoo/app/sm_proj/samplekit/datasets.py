"""Synthetic utterances: token ids of varying length and an intent label."""

import torch
from torch.utils.data import ConcatDataset, Dataset, IterableDataset

N_INTENTS = 4
VOCAB = 50


def utterance(i: int) -> tuple[list[int], int]:
    g = torch.Generator().manual_seed(i)
    n = 3 + i % 5
    return torch.randint(1, VOCAB, (n,), generator=g).tolist(), i % N_INTENTS


class Utterances(Dataset):
    """Map-style: the labelled set, one dict per utterance (ids a plain list, as read from JSON lines)."""

    def __init__(self, n: int, offset: int = 0):
        self.items = [utterance(offset + i) for i in range(n)]

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> dict:
        ids, label = self.items[i]
        return {"ids": ids, "label": label}


class StreamedUtterances(IterableDataset):
    """Iterable: utterances streamed from the live logs, labelled by the rules engine."""

    def __init__(self, n: int):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            ids, label = utterance(10_000 + i)
            yield {"ids": ids, "label": label}


def training_corpus(with_stream: bool) -> Dataset:
    labelled = Utterances(48)
    if not with_stream:
        return labelled
    return ConcatDataset([labelled, StreamedUtterances(32)])
