"""torchrun, 2 gloo ranks: rank 1's DataLoader worker refuses a hashed feature row (scipy's full check).

The feature rows were hashed by an exporter that forgot `% n_features`; this program checks each CSR row with
`check_format(full_check=True)` before using it, so scipy raises ValueError (`indices must be < 512`) in rank 1's
worker 0 (rank 1's shard holds the bad row); rank 1 re-raises it, rank 0 waits in all_reduce and torchrun stops
it.
"""

import numpy as np
import scipy.sparse as sp
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset

N_FEATURES = 512


class HashedRows(Dataset):
    def __init__(self, rank: int):
        rng = np.random.default_rng(rank)
        self.rows = [np.sort(rng.choice(N_FEATURES, size=5, replace=False)) for _ in range(8)]
        if rank == 1:
            self.rows[2] = (self.rows[2] * 2654435761) % (2**32)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> torch.Tensor:
        idx = self.rows[i].astype(np.int64)
        row = sp.csr_array((np.ones(len(idx), np.float32), idx, np.array([0, len(idx)])), shape=(1, N_FEATURES))
        row.check_format(full_check=True)
        return torch.from_numpy(row.toarray().reshape(-1))


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    loader = DataLoader(HashedRows(rank), batch_size=2, num_workers=1)
    model = torch.nn.Linear(N_FEATURES, 1)
    for step, batch in enumerate(loader):
        loss = model(batch).pow(2).mean()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
