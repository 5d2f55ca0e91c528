"""A feature-extraction child process hands its results back on a JoinableQueue; its `Results.__del__` waits
(`queue.join()`) until the consumer has marked every result done, so nothing is lost when the child ends. The
parent reads the results with get() and never calls task_done(): when the child's function returns, `__del__`
waits for ever, and the parent waits in join() for the child."""

import multiprocessing as mp

import torch


class Results:
    def __init__(self, queue):
        self.queue = queue

    def put(self, item) -> None:
        self.queue.put(item)

    def __del__(self):
        self.queue.join()  # every result consumed before the child goes


def extract(queue, n: int) -> None:
    results = Results(queue)
    for i in range(n):
        results.put((i, torch.full((4,), float(i)).tolist()))
    print(f"[child] extracted {n} clips", flush=True)


def main() -> None:
    ctx = mp.get_context("fork")
    queue = ctx.JoinableQueue()
    child = ctx.Process(target=extract, args=(queue, 6))
    child.start()
    feats = [queue.get() for _ in range(6)]
    print(f"[main] got {len(feats)} feature rows", flush=True)
    child.join()
    print("[main] done")
