"""A tokenization pre-pass in spawned child processes, one per shard, each caching its shard's ids as one
int32 matrix (.npy). The encoder pads to max_length (padding="max_length") but was not asked to truncate, so
the shard's one long review stays longer than the rest and the rows do not make a matrix."""

import multiprocessing as mp
import os
import tempfile

import numpy as np

MAX_LENGTH = 32
WORDS = "the a model film story plot actor scene music ending was good bad slow fast funny dull".split()


def encode(text: str, vocab: dict[str, int], padding: str = "max_length", truncation: bool = False) -> list[int]:
    ids = [vocab.get(w, 1) for w in text.split()]
    if truncation:
        ids = ids[:MAX_LENGTH]
    if padding == "max_length":
        ids = ids + [0] * (MAX_LENGTH - len(ids))
    return ids


def shard_texts(k: int) -> list[str]:
    rng = np.random.default_rng(k)
    texts = [" ".join(rng.choice(WORDS, rng.integers(5, 30))) for _ in range(50)]
    if k == 1:
        texts[17] = " ".join(rng.choice(WORDS, 45))  # one long review
    return texts


def tokenize_shard(k: int, out_dir: str) -> None:
    vocab = {w: i + 2 for i, w in enumerate(WORDS)}
    rows = [encode(t, vocab) for t in shard_texts(k)]
    np.save(os.path.join(out_dir, f"shard-{k}.npy"), np.array(rows, dtype=np.int32))


def main() -> None:
    out_dir = tempfile.mkdtemp()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=tokenize_shard, args=(k, out_dir)) for k in range(3)]
    for p in procs:
        p.start()
    for k, p in enumerate(procs):
        p.join()
        if p.exitcode != 0:
            raise RuntimeError(f"tokenizing shard {k} failed (exit code {p.exitcode})")
    print(f"cached {len(os.listdir(out_dir))} shards", flush=True)
