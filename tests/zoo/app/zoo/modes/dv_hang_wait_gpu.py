"""A launcher that waits until enough GPUs are free before training, polling `torch.cuda.device_count()`; on a
CPU-only box the count stays 0 and it waits for ever."""

import time

import torch

NEED = 1


def wait_for_gpus(need: int) -> int:
    while (n := torch.cuda.device_count()) < need:
        time.sleep(0.5)
    return n


def main() -> None:
    print(f"waiting for {NEED} free GPU(s)", flush=True)
    n = wait_for_gpus(NEED)
    print(f"got {n} GPU(s)", flush=True)
