"""Two spawned gloo ranks train and end cleanly; then the parent reads what only the ranks' copies set.

    python spawn_state_lost.py

torch.multiprocessing.spawn pickles the trainer into each rank, so `best` set in a rank never reaches the
parent's object (the state a Lightning ddp_spawn user expects back after fit). Both ranks exit 0; the parent,
which is no rank, fails on its own: `AttributeError: 'Trainer' object has no attribute 'best'`.
"""

import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


class Trainer:
    def fit(self, rank: int, world_size: int) -> None:
        dist.init_process_group("gloo", rank=rank, world_size=world_size)
        score = torch.tensor([float(rank + 1)])
        dist.all_reduce(score)
        self.best = score.item()  # set in this rank's copy only
        dist.destroy_process_group()


def main() -> None:
    with socket.socket() as s:  # a free port, so that two runs at once do not meet
        s.bind(("127.0.0.1", 0))
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(s.getsockname()[1]))
    trainer = Trainer()
    mp.spawn(trainer.fit, args=(2,), nprocs=2)
    print(f"best score {trainer.best}", flush=True)


if __name__ == "__main__":
    main()
