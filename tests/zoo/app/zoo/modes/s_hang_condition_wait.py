"""A prefetch thread waits on a threading.Condition for the main to say the next shard is staged; the main sets
the flag but never calls notify(), then joins the thread. The thread waits forever, and so the main; nothing
printed."""

import threading

import torch

staged = threading.Condition()
state = {"ready": False}


def prefetch(buffer: list) -> None:
    with staged:
        staged.wait()  # woken only by notify(), which never comes
        buffer.append(torch.zeros(4))


def main() -> None:
    buffer: list = []
    worker = threading.Thread(target=prefetch, args=(buffer,), name="prefetch")
    worker.start()
    with staged:
        state["ready"] = True  # forgot staged.notify()
    worker.join()
    print(len(buffer))
