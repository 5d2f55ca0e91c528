"""Feature ids: a vocabulary counted by a multiprocessing Pool over the click log's shards, and hashed buckets."""

import multiprocessing as mp
import zlib
from collections import Counter


def count_shard(lines):
    counts = Counter()
    for line in lines:
        user, item, feats = line.split("\t")
        counts.update(feats.split(","))
    return counts


def build_vocab(shards, workers):
    with mp.get_context("fork").Pool(workers) as pool:
        parts = pool.map(count_shard, shards)
    total = sum(parts, Counter())
    return {f: i for i, (f, _) in enumerate(total.most_common())}


def bucket(key, buckets):
    return zlib.crc32(key.encode()) % buckets
