"""Tokenising text shards with multiprocessing.Pool.map: one shard was exported as Latin-1, the worker's
open(..., encoding="utf-8") fails on it, and Pool.map re-raises the worker's UnicodeDecodeError in the parent
with the worker's traceback as its cause (multiprocessing.pool.RemoteTraceback)."""

import multiprocessing as mp
import os
import tempfile


def count_tokens(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return len(text.split())


def write_shards(folder: str) -> list:
    paths = []
    for i in range(6):
        path = os.path.join(folder, f"shard_{i}.txt")
        text = "the quick brown fox jumps over the lazy dog\n" * 50
        if i == 4:
            text += "caf\u00e9 na\u00efve r\u00e9sum\u00e9\n"
        with open(path, "w", encoding="latin-1" if i == 4 else "utf-8") as f:
            f.write(text)
        paths.append(path)
    return paths


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = write_shards(folder)
        with mp.get_context("fork").Pool(2) as pool:
            counts = pool.map(count_tokens, paths)
        print(f"{sum(counts)} tokens in {len(paths)} shards")
