"""A multiprocessing.Pool task raises the program's own exception class, whose __init__ takes two arguments but
hands one message to Exception: it pickles, but cannot be rebuilt from its args. The pool's result-handler
thread in the main dies unpickling it; map() waits forever for the result."""

import multiprocessing as mp


class ShardError(Exception):
    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


def tokenize(shard: int) -> int:
    if shard == 3:
        raise ShardError(f"shards/{shard:05d}.txt", "bad utf-8 at byte 17")
    return shard * 100


def main() -> None:
    with mp.get_context("fork").Pool(2) as pool:
        counts = pool.map(tokenize, range(6))
    print(sum(counts))
