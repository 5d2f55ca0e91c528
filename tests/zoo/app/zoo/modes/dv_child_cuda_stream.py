"""Evaluation runs in a child process (multiprocessing, spawn) with a side-stream prefetcher written for the
GPU box: it makes a `torch.cuda.Stream()` to overlap the host-to-device copies, on a CPU-only torch."""

import multiprocessing as mp
import sys

import torch


def evaluate(n: int) -> None:
    stream = torch.cuda.Stream()
    total = 0.0
    for _ in range(n):
        with torch.cuda.stream(stream):
            batch = torch.randn(8, 4)
        total += batch.sum().item()
    print(f"eval total {total:.3f}", flush=True)


def main() -> None:
    print("training epoch 0 done; evaluating in a child", flush=True)
    child = mp.get_context("spawn").Process(target=evaluate, args=(4,), name="evaluator")
    child.start()
    child.join()
    if child.exitcode != 0:
        sys.exit(f"evaluation child failed with exit code {child.exitcode}")
