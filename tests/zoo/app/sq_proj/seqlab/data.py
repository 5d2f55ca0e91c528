"""A synthetic corpus (sentences of 3 to 20 words, a label each), its dataset and the padding collate."""

import random

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset

from seqlab.vocab import PAD

WORDS = "the a cat dog sat ran on under mat rug fast slow red blue big small and then".split()


def corpus(n: int, seed: int = 0, min_len: int = 3, max_len: int = 20) -> list[tuple[str, int]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(min_len, max_len))]
        rows.append((" ".join(words), int("cat" in words)))
    return rows


class SeqDataset(Dataset):
    def __init__(self, rows, vocab, word_dropout: float = 0.0, dropout_from: int = 0) -> None:
        self.rows, self.vocab = rows, vocab
        self.word_dropout, self.dropout_from = word_dropout, dropout_from

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> dict:
        line, label = self.rows[i]
        ids = self.vocab.encode(line)
        if self.word_dropout and i >= self.dropout_from:
            rng = random.Random(i)
            # augmentation: drop words at random (keeps at least one)
            return {"ids": [t for t in ids if rng.random() > self.word_dropout] or ids[:1], "label": label}
        return {"ids": torch.tensor(ids), "label": label}


def collate(batch: list[dict]) -> dict:
    ids = pad_sequence([b["ids"] for b in batch], batch_first=True, padding_value=PAD)
    lengths = torch.tensor([len(b["ids"]) for b in batch])
    labels = torch.tensor([b["label"] for b in batch])
    return {"ids": ids, "lengths": lengths, "labels": labels}
