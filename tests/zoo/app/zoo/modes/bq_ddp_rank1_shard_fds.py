"""torchrun, 2 gloo ranks under the container's open-file limit (nofile 256, set by each rank): each rank keeps its
shards' files open for the epoch; rank 1's part of the corpus is 240 small shards (rank 0's, 40 large ones). Rank
1's spawn DataLoader cannot make its workers' queue: `OSError: [Errno 24] Too many open files`; rank 0 waits in
its first all_reduce.
"""

import os
import resource
import tempfile

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset

OPEN_SHARDS = []


class Rows(Dataset):
    def __len__(self) -> int:
        return 16

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.full((4,), float(i))


def open_shards(rank: int) -> None:
    folder = tempfile.mkdtemp(prefix=f"bq_shards-rank{rank}-")
    for i in range(40 if rank == 0 else 240):
        OPEN_SHARDS.append(open(os.path.join(folder, f"shard{i:05d}.bin"), "wb+"))


def run(rank: int, world_size: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    dist.init_process_group("gloo")
    open_shards(rank)
    model = torch.nn.Linear(4, 1)
    loader = DataLoader(Rows(), batch_size=4, num_workers=2, multiprocessing_context="spawn")
    for step, x in enumerate(loader):
        loss = model(x).pow(2).mean()
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
