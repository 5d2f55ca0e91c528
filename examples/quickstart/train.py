"""A training script of the kind the crash reports had: 30 lines, nothing crashmatrix-specific.

Planted for the README: a DataLoader worker that was forked (not spawned) segfaults in its first batch,
as a worker does when it inherits a library's state it cannot use after fork."""

import ctypes
import multiprocessing

import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class Frames(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        if get_worker_info() is not None and multiprocessing.get_start_method() == "fork":
            ctypes.string_at(0)  # the planted crash: SIGSEGV inside the worker
        return torch.randn(3, 32, 32), i % 10


def main():
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 32 * 32, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _epoch in range(2):
        for x, y in DataLoader(Frames(), batch_size=8, num_workers=0):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print("done, loss", float(loss))


if __name__ == "__main__":
    main()
