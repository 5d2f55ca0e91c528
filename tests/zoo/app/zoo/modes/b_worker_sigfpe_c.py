"""A DataLoader (2 workers, fork) whose Dataset buckets each sequence's positions with a small C helper built at
run time (gcc, loaded with ctypes): the bucket width is the sequence's length // 8, zero for a sequence shorter
than 8, and the C integer division by zero kills worker 1 with SIGFPE."""

import ctypes
import os
import subprocess
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset

SOURCE = r"""
int bucket_of(int position, int width) {
    return position / width;
}
"""


def build_helper() -> str:
    folder = tempfile.mkdtemp(prefix="bbucket-")
    src, lib = os.path.join(folder, "bucket.c"), os.path.join(folder, "libbucket.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O0", "-shared", "-fPIC", "-o", lib, src], check=True)
    return lib


class Sequences(Dataset):
    def __init__(self, lib_path: str):
        self.lib_path, self.lib = lib_path, None
        self.lengths = [16, 24, 32, 16, 40, 3, 24, 16]

    def __len__(self) -> int:
        return len(self.lengths)

    def __getitem__(self, i: int):
        if self.lib is None:
            self.lib = ctypes.CDLL(self.lib_path)
        length = self.lengths[i]
        width = length // 8
        buckets = [self.lib.bucket_of(p, width) for p in range(length)]
        return torch.tensor(buckets[:3], dtype=torch.long)


def main() -> None:
    loader = DataLoader(Sequences(build_helper()), batch_size=4, num_workers=2)
    for step, batch in enumerate(loader):
        print(f"batch {step}: {batch.shape}", flush=True)
