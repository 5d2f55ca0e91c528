"""An IterableDataset of labelled token records read shard by shard, each DataLoader worker taking every other
shard (get_worker_info). Shard 1, which only worker 1 reads, holds a record whose label is "n/a"; int() of it
raises in worker 1 alone, after worker 0 has already yielded its first batch."""

import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

SHARDS = [
    [{"tokens": [1, 2, 3], "label": "0"}, {"tokens": [4, 5, 6], "label": "1"}] * 4,
    [{"tokens": [7, 8, 9], "label": "1"}, {"tokens": [2, 4, 6], "label": "n/a"}] * 4,
]


class ShardedRecords(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        for shard in SHARDS[info.id :: info.num_workers]:
            for record in shard:
                yield torch.tensor(record["tokens"]), int(record["label"])


def main() -> None:
    loader = DataLoader(ShardedRecords(), batch_size=4, num_workers=2)
    seen = 0
    for tokens, labels in loader:
        seen += len(labels) * (tokens.shape[1] > 0)
    print(seen)
