"""torchrun, 2 gloo ranks: each rank's metrics thread sums the losses it is sent; the program's
threading.excepthook prints a dead thread's traceback and SIGKILLs its own rank at once (no cleanup). Rank 1
also logs an auxiliary loss the aggregator never registered: its thread raises KeyError, its hook kills it,
rank 0 waits in all_reduce and loses its peer."""

import os
import queue
import signal
import sys
import threading
import traceback

import torch
import torch.distributed as dist


def fail_fast(args) -> None:
    traceback.print_exception(args.exc_value, file=sys.stderr)
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def aggregate(q: queue.Queue, totals: dict) -> None:
    while True:
        name, value = q.get()
        totals[name] += value


def run(rank: int, world_size: int) -> None:
    threading.excepthook = fail_fast
    dist.init_process_group("gloo")
    q: queue.Queue = queue.Queue()
    totals = {"loss": 0.0}
    threading.Thread(target=aggregate, args=(q, totals), name="metrics", daemon=True).start()
    net = torch.nn.Linear(8, 1)
    for step in range(20):
        loss = net(torch.randn(4, 8)).pow(2).mean()
        loss.backward()
        for p in net.parameters():
            dist.all_reduce(p.grad)
        q.put(("loss", loss.item()))
        if rank == 1 and step == 2:
            q.put(("aux_loss", 0.5 * loss.item()))
        print(f"[rank{rank}] step {step}", flush=True)
        threading.Event().wait(0.2)
    dist.destroy_process_group()
