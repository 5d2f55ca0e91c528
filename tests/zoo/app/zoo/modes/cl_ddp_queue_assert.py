"""torchrun, 2 gloo ranks: MoCo with a per-rank key queue (K=32) and MoCo's own enqueue check
`assert self.K % batch_size == 0`; the shards were split by file, rank 0 has 32 images, rank 1 has 38, so rank 1's
fifth batch holds 6 keys and fails the check, while rank 0 has finished its 4 steps and waits in the final
barrier."""

from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Queue:
    def __init__(self, dim: int, K: int):
        self.K = K
        self.queue = F.normalize(torch.randn(dim, K), dim=0)
        self.ptr = 0

    @torch.no_grad()
    def dequeue_and_enqueue(self, keys: torch.Tensor) -> None:
        batch_size = keys.shape[0]
        assert self.K % batch_size == 0  # for simplicity
        self.queue[:, self.ptr : self.ptr + batch_size] = keys.T
        self.ptr = (self.ptr + batch_size) % self.K


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(rank)
    data = torch.randn(32 if rank == 0 else 38, 16)
    encoder_q = DDP(nn.Linear(16, 8))
    encoder_k = nn.Linear(16, 8).requires_grad_(False)
    queue = Queue(8, 32)
    opt = torch.optim.SGD(encoder_q.parameters(), lr=0.1)
    for step, x in enumerate(data.split(8)):
        q = F.normalize(encoder_q(x + 0.1 * torch.randn_like(x)), dim=1)
        k = F.normalize(encoder_k(x + 0.1 * torch.randn_like(x)), dim=1)
        logits = torch.cat([(q * k).sum(1, keepdim=True), q @ queue.queue.clone().detach()], dim=1) / 0.2
        loss = F.cross_entropy(logits, torch.zeros(len(x), dtype=torch.long))
        queue.dequeue_and_enqueue(k)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.barrier()
    dist.destroy_process_group()
