"""A producer process dies of its own exception before putting anything; the main waits on the Queue for ever."""

import multiprocessing as mp


def produce(q) -> None:
    rows = {"a": 1}
    q.put(rows["b"])  # KeyError: the producer dies, nothing is put


def main() -> None:
    q = mp.get_context("fork").Queue()
    p = mp.get_context("fork").Process(target=produce, args=(q,), name="producer")
    p.start()
    print(q.get())  # no timeout
