"""fork DataLoader, 1 worker: the parent ran OpenMP; worker_init_fn gives the worker 2 intra-op threads; it hangs.

The main process normalises the whole feature table with a parallel op before the loader starts (GNU OpenMP
starts its thread team). The loader's `worker_init_fn` undoes the DataLoader's one-thread default with
`torch.set_num_threads(2)` "to use the cores"; the forked worker's first parallel op waits for an OpenMP team
that did not survive the fork (the GNU OpenMP fork problem). The main waits for its first batch for ever.
"""

import torch
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, table: torch.Tensor) -> None:
        self.table = table

    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> torch.Tensor:
        window = self.table[i * 1000 : i * 1000 + 200_000]
        return torch.tanh(window * 0.5).sum(0)


def use_cores(worker_id: int) -> None:
    torch.set_num_threads(2)


def main() -> None:
    table = torch.randn(1_000_000, 4)
    table = (table - table.mean(0)) / table.std(0)  # parallel ops in the parent
    print(f"table normalised with {torch.get_num_threads()} threads", flush=True)
    loader = DataLoader(
        Windows(table), batch_size=2, num_workers=1, worker_init_fn=use_cores, multiprocessing_context="fork"
    )
    model = torch.nn.Linear(4, 1)
    for step, batch in enumerate(loader):
        loss = model(batch).pow(2).mean()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
