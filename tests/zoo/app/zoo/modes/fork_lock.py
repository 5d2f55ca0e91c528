"""A tokenizer's thread holds its lock when the DataLoader forks: the worker's encode waits for it forever.

(HF tokenizers warn of this: "The current process just got forked, after parallelism has already been used".)
"""

import threading

import torch
from torch.utils.data import DataLoader, Dataset

from zoo.data import quiet_torch

_lock = threading.Lock()
_held = threading.Event()


def _tokenizer_pool() -> None:
    with _lock:  # a pool thread busy in the tokenizer when the fork happens
        _held.set()
        threading.Event().wait()


def encode(text: str) -> list:
    with _lock:
        return [ord(c) for c in text]


class Texts(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.tensor(encode("hello"))


def main() -> None:
    quiet_torch()
    threading.Thread(target=_tokenizer_pool, daemon=True).start()
    _held.wait()
    for _batch in DataLoader(Texts(), batch_size=2, num_workers=1):
        pass
