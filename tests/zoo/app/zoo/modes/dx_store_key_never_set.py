"""torchrun, 2 gloo ranks: rank 1 evaluates and signals through a side TCPStore (timeout 10 s) that its results
are written; rank 0 waits for the key `eval/done`, but rank 1 sets `eval_done`."""

import os
import time
from datetime import timedelta

import torch.distributed as dist


def run(rank: int, world_size: int) -> None:
    port = int(os.environ["MASTER_PORT"]) + 1
    store = dist.TCPStore(
        os.environ["MASTER_ADDR"], port, world_size, is_master=rank == 0, timeout=timedelta(seconds=10)
    )
    if rank == 1:
        time.sleep(0.5)
        store.set("eval_done", "1")
        print("rank 1: eval results written", flush=True)
        time.sleep(12)
    else:
        print("rank 0: waiting for rank 1's evaluation", flush=True)
        store.wait(["eval/done"])
        print("rank 0: evaluation ready", flush=True)
