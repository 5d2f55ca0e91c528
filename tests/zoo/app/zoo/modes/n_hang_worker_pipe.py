"""A DataLoader worker's __getitem__ pipes each sample through an external filter (`cat` standing in for a
decoder), writes the bytes to its stdin but never closes it, then reads the filter's stdout to EOF: the
filter waits for more input, the worker waits for EOF, the main waits for the worker. Frozen, nothing printed."""

import subprocess

import torch
from torch.utils.data import DataLoader, Dataset


class Filtered(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        proc = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        proc.stdin.write(bytes([i]) * 16)
        proc.stdin.flush()
        raw = proc.stdout.read()
        return torch.tensor(list(raw), dtype=torch.float32)


def main() -> None:
    for batch in DataLoader(Filtered(), batch_size=4, num_workers=1):
        print(batch.sum().item())
