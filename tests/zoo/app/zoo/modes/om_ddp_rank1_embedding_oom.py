"""torchrun, 2 gloo ranks: each rank sizes its token embedding from its own shard's largest id (the global
vocabulary was meant) and holds itself to 1 GB of data past its mapping (RLIMIT_DATA, the job's per-task
memory). Rank 1's shard holds a 0xFFFFFFF id from a bad join, its table of 268435456 x 64 floats (64 GiB) is
refused: DefaultCPUAllocator's `can't allocate memory` in nn.Embedding; rank 0 already waits in DDP's
construction for rank 1's parameters."""

import resource

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def mapped_data() -> int:
    with open("/proc/self/status") as f:
        return int(next(x for x in f if x.startswith("VmData:")).split()[1]) * 1024


def shard(rank: int) -> torch.Tensor:
    ids = torch.randint(0, 30000, (64, 16), generator=torch.Generator().manual_seed(rank))
    if rank == 1:
        ids[5, 3] = 0xFFFFFFF
    return ids


class Tagger(nn.Module):
    def __init__(self, vocab: int) -> None:
        super().__init__()
        self.emb = nn.Embedding(vocab, 64)
        self.out = nn.Linear(64, 4)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.out(self.emb(ids).mean(1))


def build_model(ids: torch.Tensor) -> nn.Module:
    vocab = int(ids.max()) + 1
    return Tagger(vocab)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    resource.setrlimit(resource.RLIMIT_DATA, (mapped_data() + (1 << 30), hard))
    ids = shard(rank)
    torch.manual_seed(0)
    model = DDP(build_model(ids))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(4):
        batch = ids[step * 16 : (step + 1) * 16]
        loss = model(batch).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
