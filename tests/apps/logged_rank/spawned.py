"""Two ranks by torch.multiprocessing.spawn (gloo). A rank logs its own failure with logging.exception and exits 1;
rank 1's shard holds a bad record at step 3."""

import logging
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def batch(rank, step):
    if rank == 1 and step == 3:
        raise ValueError(f"record {step * 8 + 5} of shard {rank} has 7 features, expected 8")
    return torch.randn(8, 8)


def run(rank, world):
    logging.basicConfig(level=logging.INFO)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29632"
    dist.init_process_group("gloo", rank=rank, world_size=world)
    model = torch.nn.Linear(8, 1)
    try:
        for step in range(6):
            x = batch(rank, step)
            loss = model(x).pow(2).mean()
            loss.backward()
            for p in model.parameters():
                dist.all_reduce(p.grad)
            logging.info("rank %d step %d loss %.3f", rank, step, loss.item())
    except ValueError:
        logging.exception("rank %d stopped at step %d", rank, step)
        sys.exit(1)
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(run, args=(2,), nprocs=2)
