"""torchrun --nproc_per_node=2: rank 1 sets a key in a side TCPStore and sleeps; rank 0 waits for a key of
another name (`ready/1` against `ready-1`), and its wait times out after 2 s. No collective: the program's key."""

import os
import time
from datetime import timedelta

import torch.distributed as dist


def main() -> None:
    rank = int(os.environ["RANK"])
    port = int(os.environ["MASTER_PORT"]) + 1
    store = dist.TCPStore(os.environ["MASTER_ADDR"], port, 2, is_master=rank == 0, timeout=timedelta(seconds=2))
    if rank == 1:
        store.set("ready-1", "1")
        time.sleep(6)
    else:
        store.wait(["ready/1"])


if __name__ == "__main__":
    main()
