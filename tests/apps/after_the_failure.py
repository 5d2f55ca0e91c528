"""Two failures whose last words are not the failure (the twenty-seventh held-out set's ex_queue_producer_exited
and ex_atexit_after_failure, untrue there). case=queue: a torch.multiprocessing queue read after its producer
exited, the program's ConnectionRefusedError in rebuild_storage_fd, no DataLoader and no worker lost. case=atexit:
the main's TypeError, then an atexit hook's KeyError that Python prints as ignored."""

import atexit
import sys

import torch
import torch.multiprocessing as mp


def produce(q):
    for i in range(3):
        q.put(torch.full((4,), float(i)))


def queue_after_producer():
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=produce, args=(q,))
    p.start()
    p.join()  # the producer has exited: the tensors it shared by file descriptor have no sender left
    print("producer done, exit", p.exitcode, flush=True)
    return [q.get(timeout=10) for _ in range(3)]


STATE = {}


def save_last():
    print("saving", STATE["model"])


def atexit_after_failure():
    atexit.register(save_last)
    config = None
    return config["lr"]


if __name__ == "__main__":
    case = dict(a.split("=", 1) for a in sys.argv[1:])["case"]
    print({"queue": queue_after_producer, "atexit": atexit_after_failure}[case]())
