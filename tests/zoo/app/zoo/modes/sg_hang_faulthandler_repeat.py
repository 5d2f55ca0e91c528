"""The program arms `faulthandler.dump_traceback_later(2, repeat=True)` to see where a slow run spends its time:
every 2 s every thread's stack goes to stderr. A consumer thread scores 10 predictions from a queue and sets
`done` after the 10th; the producer puts 9 (range(1, 10)). The main waits on `done` for ever, stderr filling
with dumps."""

import faulthandler
import queue
import threading

import torch


def consume(q: queue.Queue, done: threading.Event, scores: list) -> None:
    for _ in range(10):
        scores.append(q.get().sum().item())
    done.set()


def main() -> None:
    faulthandler.dump_traceback_later(2, repeat=True)
    q: queue.Queue = queue.Queue()
    done = threading.Event()
    scores: list = []
    threading.Thread(target=consume, args=(q, done, scores), name="scorer", daemon=True).start()
    for i in range(1, 10):
        q.put(torch.full((4,), float(i)))
    print("waiting for the scorer", flush=True)
    done.wait()
    print(f"mean score {sum(scores) / len(scores):.2f}", flush=True)
