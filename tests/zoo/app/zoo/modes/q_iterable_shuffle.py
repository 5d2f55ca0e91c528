"""A streaming IterableDataset (records read line by line) handed to a DataLoader with shuffle=True, as the
map-style loader it replaced had: torch refuses the option when the loader is built."""

import torch
from torch.utils.data import DataLoader, IterableDataset


class StreamedRecords(IterableDataset):
    def __init__(self, n: int):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.full((4,), float(i))


def main() -> None:
    loader = DataLoader(StreamedRecords(32), batch_size=8, shuffle=True)
    for batch in loader:
        print(batch.shape)
