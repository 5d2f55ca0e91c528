"""Samples read from a sqlite index in 2 DataLoader workers (fork; each worker opens its own connection, with
`row_factory = sqlite3.Row`); the loader's collate_fn is `list`, so the rows travel back as they are. A worker's
result-queue feeder thread cannot pickle a sqlite3.Row, prints the error and drops the batch; the workers stay
alive, and the main waits for the batch for ever (no DataLoader timeout)."""

import os
import sqlite3
import tempfile

from torch.utils.data import DataLoader, Dataset


class IndexRows(Dataset):
    def __init__(self, path: str, n: int) -> None:
        self.path = path
        self.n = n
        self.conn: sqlite3.Connection | None = None

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> sqlite3.Row:
        if self.conn is None:
            self.conn = sqlite3.connect(self.path)
            self.conn.row_factory = sqlite3.Row
        return self.conn.execute("SELECT id, path, label FROM items WHERE id = ?", (i,)).fetchone()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "index.db")
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, path TEXT, label INTEGER)")
        conn.executemany("INSERT INTO items VALUES (?, ?, ?)", [(i, f"img_{i}.png", i % 3) for i in range(32)])
        conn.commit()
        conn.close()
        loader = DataLoader(IndexRows(path, 32), batch_size=8, num_workers=2, collate_fn=list)
        print("reading the index", flush=True)
        for step, rows in enumerate(loader):
            print(step, [r["path"] for r in rows])
