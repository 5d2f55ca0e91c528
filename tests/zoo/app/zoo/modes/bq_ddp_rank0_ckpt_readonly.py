"""torchrun, 2 gloo ranks: the job's output volume is mounted read-only (as a container's `-v out:/out:ro`; here a
private read-only tmpfs over the run's output folder, in each rank's own mount namespace). Rank 0 saves after step
2: torch.save's writer refuses (`open file failed with strerror: Read-only file system`); rank 1 waits in the
next all_reduce.
"""

import os
import tempfile

import torch
import torch.distributed as dist

from zoo.bq_mounts import private_tmpfs


def run(rank: int, world_size: int) -> None:
    out = os.path.join(tempfile.gettempdir(), "bq_ddp_out")
    os.makedirs(out, exist_ok=True)
    private_tmpfs(out, 4, readonly=True)
    dist.init_process_group("gloo")
    model = torch.nn.Linear(4, 1)
    x = torch.randn(8, 4, generator=torch.Generator().manual_seed(rank))
    for step in range(6):
        loss = model(x).pow(2).mean()
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
        if rank == 0 and step == 2:
            torch.save(model.state_dict(), os.path.join(out, f"step{step}.pt"))
    dist.destroy_process_group()
