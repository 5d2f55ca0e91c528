"""A Dataset whose decoder gives up on a corrupt sample by exiting with a status (as some native libraries'
fatal paths do): the DataLoader worker ends with status 2, without a traceback."""

import sys

import torch
from torch.utils.data import DataLoader, Dataset


class Frames(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, index):
        if index == 37:
            decode_failed(index)
        return torch.full((8,), float(index))


def decode_failed(index):
    print(f"decoder: sample {index} is corrupt, giving up", file=sys.stderr)
    sys.exit(2)


def main():
    workers = int(next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("num_workers=")), "2"))
    for batch in DataLoader(Frames(), batch_size=4, num_workers=workers):
        batch.sum()


if __name__ == "__main__":
    main()
