"""An IterableDataset read by 2 DataLoader workers without sharding by get_worker_info(): every worker yields
every record, and the program's own de-duplication check refuses the second copy."""

import torch
from torch.utils.data import DataLoader, IterableDataset


class Records(IterableDataset):
    def __iter__(self):
        for i in range(8):  # no worker_info sharding: each worker yields all 8
            yield torch.tensor([i])


def main() -> None:
    torch.set_num_threads(1)
    seen = set()
    for batch in DataLoader(Records(), batch_size=2, num_workers=2):
        for rid in batch.flatten().tolist():
            if rid in seen:
                raise ValueError(f"record {rid} seen twice in one epoch")
            seen.add(rid)
