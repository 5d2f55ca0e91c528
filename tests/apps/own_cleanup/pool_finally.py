"""Tokenise the shards in a process pool; a shard's tokeniser fails on a record with no text, and the shard's
`finally:` then fails too: it closes a stats file it never opened (the open came after the failing record)."""

import multiprocessing as mp

SHARDS = [["a cat", "a dog"], ["a bird", None, "a fish"]]


def tokenise(shard):
    stats = None
    try:
        tokens = [record.split() for record in shard]
        stats = open("/dev/null", "w")
        stats.write(str(len(tokens)))
        return len(tokens)
    finally:
        stats.close()


if __name__ == "__main__":
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(tokenise, SHARDS))
