"""A streaming dataset that splits its shards across DataLoader workers (2 workers, persistent) and, when a worker's
stream ends, logs that worker's mean sample length in a `finally:`. There is one shard for 2 workers: worker 1 gets
none, its stream ends at once, and its finally divides by its count of 0."""

import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

SHARDS = [[torch.randn(n) for n in (5, 7, 6, 8, 4, 9, 5, 6)]]


class ShardStream(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        mine = SHARDS[info.id :: info.num_workers]
        total, count = 0, 0
        try:
            for shard in mine:
                for sample in shard:
                    total += len(sample)
                    count += 1
                    yield sample[:4]
        finally:
            print(f"worker {info.id}: mean length {total / count:.1f}", flush=True)


def main() -> None:
    loader = DataLoader(ShardStream(), batch_size=2, num_workers=2, persistent_workers=True)
    for epoch in range(2):
        for i, batch in enumerate(loader):
            print(f"epoch {epoch} batch {i}: {tuple(batch.shape)}", flush=True)
