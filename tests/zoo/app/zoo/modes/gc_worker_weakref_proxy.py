"""A tokenizing Dataset keeps only a weakref.proxy to its lookup table (the registry owns the tables). A record in
another language makes it load that table, which nobody else holds: the proxy is dead at once. DataLoader worker 1
(batch 1: records 4-7) meets it first: `ReferenceError: weakly-referenced object no longer exists`, re-raised by
the main as `Caught ReferenceError in DataLoader worker process 1`."""

import weakref

import torch
from torch.utils.data import DataLoader, Dataset


class Table:
    def __init__(self, lang: str):
        self.lang = lang
        self.ids = {w: i for i, w in enumerate(["<unk>", "the", "a", "der", "die", "das", "cat", "katze", "sat"])}

    def encode(self, text: str) -> list[int]:
        return [self.ids.get(w, 0) for w in text.split()]


TABLES = {"en": Table("en")}  # the registry: the tables it preloaded stay alive


def load_table(lang: str) -> Table:
    return TABLES.get(lang) or Table(lang)


RECORDS = (
    [{"lang": "en", "text": "the cat sat"}] * 5
    + [{"lang": "de", "text": "die katze"}]
    + [{"lang": "en", "text": "a cat sat"}] * 10
)


class Tokenized(Dataset):
    def __init__(self):
        self.lang = "en"
        self.table = weakref.proxy(TABLES["en"])  # no cycle, no pinning: the registry owns the table

    def __len__(self) -> int:
        return len(RECORDS)

    def __getitem__(self, i: int) -> torch.Tensor:
        rec = RECORDS[i]
        if rec["lang"] != self.lang:
            self.lang = rec["lang"]
            self.table = weakref.proxy(load_table(rec["lang"]))
        ids = self.table.encode(rec["text"])
        return torch.tensor((ids + [0, 0, 0])[:3])


def main() -> None:
    loader = DataLoader(Tokenized(), batch_size=4, num_workers=2)
    emb = torch.nn.Embedding(16, 8)
    for step, batch in enumerate(loader):
        print(f"step {step}: {emb(batch).mean().item():.4f}", flush=True)
