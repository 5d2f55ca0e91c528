"""A synthetic click log and its dataset: each row a user, a clicked item and the user's history of items."""

import random

import torch
from torch.utils.data import Dataset

N_ITEMS = 50
N_CATEGORIES = 5


def click_log(n=64, seed=0):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        user = rng.randrange(20)
        hist = [rng.randrange(N_ITEMS) for _ in range(rng.randint(1, 5))]
        rows.append((user, rng.randrange(N_ITEMS), hist))
    return rows


def popularity(rows):
    pop = torch.zeros(N_ITEMS)
    for _, item, _ in rows:
        pop[item] += 1
    return pop


class Clicks(Dataset):
    def __init__(self, rows, pop=None, negatives=0):
        self.rows, self.pop, self.negatives = rows, pop, negatives

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        user, item, hist = self.rows[i]
        negs = []
        if self.negatives:
            # negatives of the same category, drawn by popularity
            cat = item % N_CATEGORIES
            weights = self.pop[cat::N_CATEGORIES]
            picks = torch.multinomial(weights, self.negatives, replacement=True)
            negs = (picks * N_CATEGORIES + cat).tolist()
        return user, item, hist, negs


def collate_bags(batch, leading_zero=True):
    """The histories as one flat tensor of ids and the offsets where each bag starts (EmbeddingBag's input)."""
    users = torch.tensor([b[0] for b in batch])
    items = torch.tensor([b[1] for b in batch])
    flat = torch.tensor([i for b in batch for i in b[2]])
    lengths = torch.tensor([len(b[2]) for b in batch])
    if leading_zero:
        offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)[:-1]])
    else:
        offsets = lengths.cumsum(0)
    negs = torch.tensor([b[3] for b in batch]) if batch[0][3] else None
    return users, items, flat, offsets, negs
