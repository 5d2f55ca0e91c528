"""A 2-rank gloo job launched the way Lightning's `strategy=ddp` does it: the main process is rank 0 and starts
rank 1 as a second `python` of this script (RANK=1 in its environment); nothing stops rank 1 if rank 0 fails,
and rank 1 has a SIGTERM handler of its own that says so and exits 0 (as Lightning's does). Rank 1 stalls in
its own code at step 2 (a slow shard download); rank 0's all_reduce there gives up after its group's 4 s
timeout.

    python ddp_left_running.py

The truth, from running it alone (torch 2.13 CPU, Python 3.11, this 2-core box): exit status 1 after
6.5 s, rank 0's `[rank0]:` traceback ending in gloo's `RuntimeError: [...unbound_buffer.cc:78] Timed out
waiting 4000ms for recv operation to complete`, raised in `dist.all_reduce` at ddp_left_running.py:39 in
`train`. Rank 1 is still in fetch_shard (ddp_left_running.py:29) when rank 0 exits, and goes on running
alone: an orphan until its sleep ends, which no line of the output mentions.
"""

import datetime
import os
import signal
import socket
import subprocess
import sys
import time

import torch
import torch.distributed as dist


def fetch_shard() -> None:
    time.sleep(60)  # rank 1 only: a slow download of its shard


def train(rank: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=2, timeout=datetime.timedelta(seconds=4))
    weights = torch.zeros(4)
    for step in range(4):
        if rank == 1 and step == 2:
            fetch_shard()
        grad = torch.ones(4)
        dist.all_reduce(grad)
        weights -= 0.1 * grad
    dist.destroy_process_group()


def on_sigterm(signum, _frame) -> None:
    print(f"[rank: 1] Received SIGTERM: {signum}", file=sys.stderr)
    sys.exit(0)


if __name__ == "__main__":
    if os.environ.get("RANK") == "1":
        signal.signal(signal.SIGTERM, on_sigterm)
        train(1)
    else:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = str(s.getsockname()[1])
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=port, WORLD_SIZE="2")
        subprocess.Popen([sys.executable, *sys.argv], env={**os.environ, "RANK": "1", "LOCAL_RANK": "1"})
        os.environ.update(RANK="0", LOCAL_RANK="0")
        train(0)
