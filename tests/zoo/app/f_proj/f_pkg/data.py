"""A synthetic corpus of sentences labelled by their first word, and its Dataset."""

import random

import torch
from torch.utils.data import Dataset

from f_pkg.tokenizer import Tokenizer

SUBJECTS = ["cats", "dogs", "birds", "fish"]
VERBS = ["eat", "see", "chase", "like", "watch", "follow"]
OBJECTS = ["apples", "stones", "boats", "clouds", "trees", "songs", "rivers", "lamps"]
ADVERBS = ["slowly", "often", "rarely", "quietly", "gladly", "today"]


def corpus(n: int, seed: int = 0) -> list[tuple[str, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        s = rng.randrange(len(SUBJECTS))
        words = [SUBJECTS[s]]
        for _ in range(rng.randint(2, 7)):
            words += [rng.choice(VERBS), rng.choice(OBJECTS)]
            if rng.random() < 0.3:
                words.append(rng.choice(ADVERBS))
        out.append((" ".join(words), s))
    return out


class TextDataset(Dataset):
    def __init__(self, rows: list[tuple[str, int]], tokenizer: Tokenizer, max_len: int):
        self.rows, self.tok, self.max_len = rows, tokenizer, max_len

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int):
        text, label = self.rows[i]
        ids = torch.tensor(self.tok.encode(text, self.max_len))
        tags = torch.zeros(4)
        tags[label] = 1.0
        return ids, label, tags
