"""torchrun, 2 gloo ranks: a per-item SIGALRM timeout whose handler spawn workers never install.

Each rank installs a SIGALRM handler (raising TimeoutError) in its main process, and the dataset arms
`signal.alarm(1)` around each item's decode to skip slow ones. The loader's workers are spawned: they import
the module afresh and never run the rank's setup, so SIGALRM keeps its default action there. Rank 1's item 5
takes 3 s; the alarm kills its worker: `DataLoader worker (pid N) is killed by signal: Alarm clock.`
"""

import signal
import time

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset


class DecodeTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise DecodeTimeout("decode took longer than 1 s")


class Clips(Dataset):
    def __init__(self, rank: int):
        self.rank = rank

    def __len__(self) -> int:
        return 12

    def decode(self, i: int) -> torch.Tensor:
        if self.rank == 1 and i == 5:
            time.sleep(3)  # a clip on a cold disk
        return torch.full((4,), float(i))

    def __getitem__(self, i: int):
        signal.alarm(1)
        try:
            return self.decode(i)
        except DecodeTimeout:
            return torch.zeros(4)
        finally:
            signal.alarm(0)


def run(rank: int, world_size: int) -> None:
    signal.signal(signal.SIGALRM, _on_alarm)
    dist.init_process_group("gloo")
    model = torch.nn.Linear(4, 1)
    loader = DataLoader(Clips(rank), batch_size=2, num_workers=1, multiprocessing_context="spawn")
    for step, x in enumerate(loader):
        loss = model(x).pow(2).mean()
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
