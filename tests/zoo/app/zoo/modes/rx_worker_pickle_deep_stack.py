"""Parse trees as nested lists, 20000 deep; the program raised the recursion limit so it can pickle them, and the
job's stack is capped at 1 MiB (the site's `ulimit -s 1024`, set here at the start as the launcher would); in a
DataLoader worker the collate's cache key pickles the tree, the C pickler's recursion overflows the worker's
stack: SIGSEGV."""

import hashlib
import pickle
import resource
import sys

import torch
from torch.utils.data import DataLoader, Dataset


class Trees(Dataset):
    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> list:
        tree: list = [i]
        for depth in range(20000):
            tree = [depth, tree]
        return tree


def collate(trees: list) -> tuple[str, torch.Tensor]:
    key = hashlib.md5(pickle.dumps(trees)).hexdigest()
    return key, torch.tensor([t[0] for t in trees])


def main() -> None:
    resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, resource.RLIM_INFINITY))
    sys.setrecursionlimit(200000)
    loader = DataLoader(Trees(), batch_size=2, num_workers=2, collate_fn=collate)
    for key, x in loader:
        print("batch", key[:8], x.tolist(), flush=True)
