"""torchrun, 2 gloo ranks, FSDP2 on the CPU: the backbone is sharded with `fully_shard` (its parameters become
DTensors) while a small task head added later is left unsharded (plain tensors); the step clips the gradients
of both together with `torch.nn.utils.clip_grad_norm_`. (FSDP1, `FullyShardedDataParallel`, refuses the CPU in
torch 2.13: `FSDP needs a non-CPU accelerator device`; fully_shard trains on it with gloo.)"""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    torch.manual_seed(0)
    backbone = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    fully_shard(backbone)
    head = torch.nn.Linear(4, 2)
    params = list(backbone.parameters()) + list(head.parameters())
    opt = torch.optim.AdamW(params, lr=1e-3)
    for step in range(3):
        loss = head(backbone(torch.randn(4, 8))).pow(2).mean()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)
        opt.step()
        opt.zero_grad()
        if rank == 0:
            print(f"step {step} loss {loss.item():.4f} grad norm {norm:.4f}", flush=True)
    dist.destroy_process_group()
