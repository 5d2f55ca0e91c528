"""A main that gets a shard's statistics from a child over a multiprocessing Pipe; the child raises on a bad
record before it sends, but the main still holds its own copy of the sending end, so recv() never sees EOF."""

import multiprocessing as mp


def statistics(conn, records: list) -> None:
    total = sum(int(r) for r in records)  # "n/a" raises ValueError
    conn.send(total / len(records))


def main() -> None:
    receiver, sender = mp.Pipe(duplex=False)
    child = mp.Process(target=statistics, args=(sender, ["3", "5", "n/a", "7"]))
    child.start()
    mean = receiver.recv()
    child.join()
    print(mean)
