"""A forked evaluation child puts its result on a multiprocessing.Queue; the result holds the evaluator's
threading.Lock. Queue.put returns at once; the queue's feeder thread fails to pickle it, prints the error and
drops the item; the child exits 0; the parent waits in q.get() (no timeout) for ever."""

import multiprocessing as mp
import threading
import time

import torch


class Evaluator:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.scores: list[float] = []

    def score(self, x: torch.Tensor) -> None:
        with self.lock:
            self.scores.append(x.mean().item())


def evaluate(q) -> None:
    ev = Evaluator()
    for _ in range(4):
        ev.score(torch.randn(8))
    q.put({"evaluator": ev, "mean": sum(ev.scores) / len(ev.scores)})
    print("evaluation sent", flush=True)
    time.sleep(1.0)  # the evaluator's own log flush


def main() -> None:
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    child = ctx.Process(target=evaluate, args=(q,))
    child.start()
    print("waiting for the evaluation", flush=True)
    result = q.get()
    child.join()
    print("mean", result["mean"])
