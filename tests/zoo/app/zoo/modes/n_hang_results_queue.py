"""Two worker processes score shards of 10 items and put each score on a multiprocessing.Queue; the shards are
cut with floor division (10 // 3 per worker, 3 workers planned, 2 started), so fewer scores arrive than the
main's get() loop waits for. Both workers exit normally; the main waits forever."""

import multiprocessing as mp


def score(items: list, out) -> None:
    for i in items:
        out.put(i * i)


def main() -> None:
    items = list(range(10))
    per = len(items) // 3
    ctx = mp.get_context("fork")
    results = ctx.Queue()
    workers = [ctx.Process(target=score, args=(items[w * per : (w + 1) * per], results)) for w in range(2)]
    for w in workers:
        w.start()
    total = sum(results.get() for _ in items)
    print(total)
