"""Two gloo ranks under torchrun, where rank 1 stalls outside any collective at its second step while
rank 0 goes on into DDP's backward, whose gradient all_reduce waits for rank 1 (tests/test_rank_hang_speed.py).
Each rank draws its batches from a DataLoader with one worker, so the stacks hold a worker under each rank."""

import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset


def main() -> None:
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    model = DistributedDataParallel(torch.nn.Linear(4, 1))
    loader = DataLoader(TensorDataset(torch.randn(32, 4)), batch_size=4, num_workers=1)
    for step, (x,) in enumerate(loader):
        if rank == 1 and step == 0:
            time.sleep(3600)  # the straggler: stuck in its own code, in no collective
        loss = model(x).sum()
        loss.backward()  # rank 0 waits here, in DDP's all_reduce of the gradients
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
