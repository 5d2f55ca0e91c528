"""The parent joins a process that is still flushing a large result into a Queue: both wait for ever."""

import multiprocessing as mp


def produce(q) -> None:
    q.put(b"x" * (8 << 20))  # the feeder thread blocks until someone reads the pipe


def main() -> None:
    q = mp.Queue()
    p = mp.Process(target=produce, args=(q,))
    p.start()
    p.join()  # documented deadlock: join before draining the queue
    print(len(q.get()))
