"""The sample index is written to SQLite inside one explicit transaction (for speed) that is never committed; the
DataLoader's fork workers open their own connections, as SQLite's docs ask, and find no table."""

import os
import sqlite3
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset


class IndexedSamples(Dataset):
    def __init__(self, db_path: str, n: int):
        self.db_path, self.n = db_path, n
        self.conn = None

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        if self.conn is None:
            self.conn = sqlite3.connect(self.db_path)
        (label,) = self.conn.execute("SELECT label FROM samples WHERE idx = ?", (i,)).fetchone()
        return torch.full((8,), float(i)), label


def build_index(db_path: str, n: int) -> sqlite3.Connection:
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("BEGIN")
    conn.execute("CREATE TABLE samples (idx INTEGER PRIMARY KEY, label INTEGER)")
    conn.executemany("INSERT INTO samples VALUES (?, ?)", [(i, i % 3) for i in range(n)])
    return conn


def main() -> None:
    db_path = os.path.join(tempfile.mkdtemp(prefix="ds_sqlite_"), "index.db")
    index = build_index(db_path, 40)
    print(f"indexed {index.execute('SELECT COUNT(*) FROM samples').fetchone()[0]} samples", flush=True)
    loader = DataLoader(IndexedSamples(db_path, 40), batch_size=8, num_workers=2, multiprocessing_context="fork")
    model = torch.nn.Linear(8, 3)
    for x, y in loader:
        torch.nn.functional.cross_entropy(model(x), y).backward()
