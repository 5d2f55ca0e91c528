"""torchrun, 2 gloo ranks: rank 1's preemption handler saves and calls sys.exit(0) while rank 0 trains on.

Both ranks install a SIGUSR1 handler that saves the rank's checkpoint and exits 0 "for the requeue". The notice
reaches rank 1 at step 2 (the program's own simulation of Slurm's signal to one task); rank 1 exits 0 without
destroy_process_group, and rank 0, in that step's all_reduce, loses its peer.
"""

import os
import signal
import sys
import tempfile

import torch
import torch.distributed as dist

STATE = {}


def on_preempt(signum, frame) -> None:
    rank = STATE["rank"]
    path = os.path.join(tempfile.gettempdir(), f"lc_ddp_usr1_exit-rank{rank}.pt")
    torch.save(STATE["model"].state_dict(), path)
    print(f"[rank{rank}] preempted at step {STATE['step']}: saved {os.path.basename(path)}", flush=True)
    sys.exit(0)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    model = torch.nn.Linear(4, 1)
    STATE.update(rank=rank, model=model, step=0)
    signal.signal(signal.SIGUSR1, on_preempt)
    x = torch.randn(16, 4, generator=torch.Generator().manual_seed(rank))
    for step in range(6):
        STATE["step"] = step
        loss = model(x).pow(2).mean()
        model.zero_grad()
        loss.backward()
        if rank == 1 and step == 2:
            os.kill(os.getpid(), signal.SIGUSR1)
        for p in model.parameters():
            dist.all_reduce(p.grad)
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
