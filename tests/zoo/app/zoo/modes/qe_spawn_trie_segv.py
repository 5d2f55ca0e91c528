"""A tokenizer's character trie meets spawn DataLoader workers: the main dies by SIGSEGV pickling it.

The tokenizer stores its vocabulary as a trie of nested dicts, one level per character. The vocabulary file
has one corrupt line (a whole document without a space: 200,000 characters), so one branch of the trie is
200,000 dicts deep. The program raised the recursion limit long ago, when `copy.deepcopy` of the trie raised
RecursionError. Spawn workers get the dataset (and its tokenizer) pickled by the main as each worker starts;
pickle's C code recurses once per level and overflows the C stack: SIGSEGV in the main process.
"""

import faulthandler
import sys

import torch
from torch.utils.data import DataLoader, Dataset


class Tokenizer:
    def __init__(self, vocab: list[str]):
        self.trie: dict = {}
        for tid, token in enumerate(vocab):
            node = self.trie
            for ch in token:
                node = node.setdefault(ch, {})
            node["#"] = tid

    def encode(self, text: str) -> list[int]:
        return [hash(w) % 1000 for w in text.split()]


def load_vocab() -> list[str]:
    vocab = [f"tok{i}" for i in range(1000)]
    vocab.append("lorem" * 40000)  # a corrupt line: a whole document without a space
    return vocab


class Lines(Dataset):
    def __init__(self, tokenizer: Tokenizer):
        self.tokenizer = tokenizer

    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int) -> torch.Tensor:
        ids = self.tokenizer.encode(f"tok{i} tok{i + 1} tok{i + 2}")
        return torch.tensor(ids, dtype=torch.float32)


def main() -> None:
    faulthandler.enable()
    sys.setrecursionlimit(10**6)  # copy.deepcopy(tokenizer) raised RecursionError
    tokenizer = Tokenizer(load_vocab())
    print("vocab", 1001, flush=True)
    loader = DataLoader(Lines(tokenizer), batch_size=8, num_workers=2, multiprocessing_context="spawn")
    for step, x in enumerate(loader):
        print(f"step {step} mean {x.mean().item():.4f}", flush=True)
