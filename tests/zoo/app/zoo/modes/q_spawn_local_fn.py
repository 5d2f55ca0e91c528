"""torch.multiprocessing.spawn given a rank function defined inside main() (it closes over the config): spawn's
start method pickles the function for each child, and a local function cannot be pickled."""

import torch
import torch.multiprocessing as mp


def main() -> None:
    config = {"steps": 3, "lr": 0.1}

    def train_rank(rank: int) -> None:
        w = torch.zeros(4, requires_grad=True)
        for _ in range(config["steps"]):
            (w - rank).pow(2).sum().backward()

    mp.spawn(train_rank, nprocs=2)
