"""torchrun, 2 gloo ranks, resuming: the checkpoint keeps each rank's RNG state in `rng_states[rank]`, but the
save ran under `if rank == 0` and stored `[torch.get_rng_state()]`, rank 0's only. On resume rank 1 indexes past
the list; rank 0 has gone on into DDP's first collective and loses its peer."""

import os
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def checkpoint_path() -> str:
    run = os.environ.get("TORCHELASTIC_RUN_ID", "none") + "-" + os.environ.get("MASTER_PORT", "0")
    return os.path.join(tempfile.gettempdir(), f"j_ddp_resume_{run}.pt")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    torch.manual_seed(rank)
    model = torch.nn.Linear(16, 4)
    path = checkpoint_path()
    if rank == 0:  # the previous job's last save, made here so that the job can resume from it
        torch.save({"model": model.state_dict(), "step": 40, "rng_states": [torch.get_rng_state()]}, path)
    dist.barrier()
    ckpt = torch.load(path)
    model.load_state_dict(ckpt["model"])
    torch.set_rng_state(ckpt["rng_states"][rank])
    start = ckpt["step"]
    model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(start, start + 4):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            print(f"step {step} loss {float(loss):.4f}", flush=True)
    dist.barrier()
    if rank == 0:
        os.remove(path)
    dist.destroy_process_group()
