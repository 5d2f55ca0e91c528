"""mp.spawn, 2 gloo ranks: a DCP checkpoint saved as `step-000004`, resumed from `step_4`.

The saver names its folders with a zero-padded step (`step-000004`); the resume code, written later, builds
`step_{step}`. torch.distributed.checkpoint.load finds no `.metadata` in a folder that does not exist, on every rank.
"""

import os
import tempfile

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.nn.parallel import DistributedDataParallel as DDP

from zoo.modes.fs_common import spawn


def train(rank: int, world_size: int, root: str) -> None:
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    step = 4
    for _ in range(step):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    dcp.save({"model": model.state_dict()}, checkpoint_id=os.path.join(root, f"step-{step:06d}"))
    dist.barrier()
    print(f"[rank{rank}] saved step {step}; resuming", flush=True)
    resume = {"model": model.state_dict()}
    dcp.load(resume, checkpoint_id=os.path.join(root, f"step_{step}"))
    model.load_state_dict(resume["model"])


def main() -> None:
    spawn(train, tempfile.mkdtemp(prefix="fs_dcp_"))
