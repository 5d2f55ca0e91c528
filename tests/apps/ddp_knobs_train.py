"""A small DDP training run on gloo ranks, launched by torchrun (tests/test_rank_hang_speed.py).

Each rank prints the DistributedDataParallel settings it got, so a test sees a DDP knob reach every
rank; rank 1 holds a few hundred MB more than rank 0, so its peak RSS is the cell's."""

import os
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset


def main() -> None:
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    model = DistributedDataParallel(torch.nn.Linear(8, 1))
    said = (
        f"rank {rank}: static_graph={model.static_graph} find_unused_parameters={model.find_unused_parameters}"
        f" gradient_as_bucket_view={model.gradient_as_bucket_view} broadcast_buffers={model.broadcast_buffers}"
        f" bucket_bytes_cap={model.bucket_bytes_cap}\n"
    )
    os.write(sys.stdout.fileno(), said.encode())  # one write: the ranks share stdout
    ballast = torch.ones(300 * 2**20 // 4) if rank == 1 else None  # 300 MB, touched
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(TensorDataset(torch.randn(48, 8), torch.randn(48, 1)), batch_size=4)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
    del ballast
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
