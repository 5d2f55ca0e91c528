"""A run registry in SQLite: the run's row is inserted in an open transaction (committed only when the run ends),
then the metrics logger, with its own connection and a long busy timeout, inserts the first step's metrics and
waits for the write lock its own process holds: sqlite3's busy handler retries for an hour."""

import os
import sqlite3
import tempfile


class MetricsLogger:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path, timeout=3600)

    def log(self, run_id: int, step: int, loss: float) -> None:
        self.conn.execute("INSERT INTO metrics VALUES (?, ?, ?)", (run_id, step, loss))
        self.conn.commit()


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="d_runs_"), "runs.db")
    registry = sqlite3.connect(path)
    registry.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT, status TEXT)")
    registry.execute("CREATE TABLE metrics (run INTEGER, step INTEGER, loss REAL)")
    registry.commit()
    cur = registry.execute("INSERT INTO runs (name, status) VALUES (?, ?)", ("baseline", "running"))
    run_id = cur.lastrowid
    print(f"run {run_id} registered", flush=True)
    logger = MetricsLogger(path)
    for step in range(3):
        logger.log(run_id, step, 1.0 / (step + 1))
        print(f"step {step} logged", flush=True)
    registry.execute("UPDATE runs SET status = 'done' WHERE id = ?", (run_id,))
    registry.commit()
