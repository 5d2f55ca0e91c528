"""Hard negatives drawn in a thread pool ahead of the loop: each anchor's candidates are a set (the classes
minus its own), passed to `random.sample`, which since Python 3.11 takes sequences only."""

import random
from concurrent.futures import ThreadPoolExecutor

import torch

CLASSES = list(range(20))


def draw_negatives(anchor: int, k: int = 5) -> list[int]:
    candidates = set(CLASSES) - {anchor}
    return random.sample(candidates, k)


def main() -> None:
    random.seed(0)
    torch.manual_seed(0)
    anchors = [3, 7, 11, 19]
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(draw_negatives, a) for a in anchors]
        print("negatives queued")
        for a, fut in zip(anchors, futures):
            negatives = fut.result()
            print(f"anchor {a}: {negatives}")
