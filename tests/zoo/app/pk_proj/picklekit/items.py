"""The items: a token vocabulary, a synthetic dataset and one read from a sqlite index."""

import sqlite3

import torch
from torch.utils.data import Dataset


class TokenVocab:
    """Renamed from `Vocab` in the last refactor; pickles written before it still name the old class."""

    def __init__(self, words: list[str]) -> None:
        self.itos = list(words)
        self.stoi = {w: i for i, w in enumerate(words)}


def build_items(n: int, dim: int) -> Dataset:
    g = torch.Generator().manual_seed(0)
    data = torch.randn(n, dim, generator=g)
    labels = (data.sum(1) > 0).long()

    class Items(Dataset):
        def __len__(self) -> int:
            return n

        def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
            return data[i], labels[i]

    return Items()


class SqliteItems(Dataset):
    """Rows of a sqlite index; the connection is opened once, here."""

    def __init__(self, path: str, n: int, dim: int) -> None:
        self.dim = dim
        self.conn = sqlite3.connect(path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, seed INTEGER)")
        self.conn.executemany("INSERT OR REPLACE INTO items VALUES (?, ?)", [(i, i * 7) for i in range(n)])
        self.conn.commit()
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        (seed,) = self.conn.execute("SELECT seed FROM items WHERE id = ?", (i,)).fetchone()
        x = torch.randn(self.dim, generator=torch.Generator().manual_seed(seed))
        return x, (x.sum() > 0).long()
