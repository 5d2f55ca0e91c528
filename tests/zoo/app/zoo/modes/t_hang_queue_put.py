"""A prefetch thread puts batches into a queue.Queue(maxsize=1); the main joins the thread before it starts
consuming. The second put() blocks on the full queue, the join() on the thread, forever; nothing printed."""

import queue
import threading

import torch


def prefetch(batches: queue.Queue) -> None:
    for step in range(4):
        batches.put(torch.full((2,), float(step)))  # blocks at step 1: nobody takes step 0's batch yet


def main() -> None:
    batches: queue.Queue = queue.Queue(maxsize=1)
    producer = threading.Thread(target=prefetch, args=(batches,), name="prefetch")
    producer.start()
    producer.join()  # the consumer loop below was meant to run first
    while not batches.empty():
        print(batches.get())
