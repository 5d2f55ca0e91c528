"""A DataLoader worker allocates a buffer sized from a corrupt length field: MemoryError in the worker, which the
main re-raises (`Caught MemoryError in DataLoader worker process 0`)."""

import torch
from torch.utils.data import DataLoader, Dataset


class Packed(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        length = 1 << 52  # the record's header, misread
        buf = bytearray(length)
        return torch.tensor([len(buf)])


def main() -> None:
    torch.set_num_threads(1)
    for batch in DataLoader(Packed(), batch_size=2, num_workers=1):
        print(batch)
