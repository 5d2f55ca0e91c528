"""A DataLoader as training code writes one: pin_memory=True (torch warns once on a machine without an
accelerator; filters by module or message decide what the user sees), two passes, an IterableDataset
whose length is too short (torch warns with stacklevel=2, naming the line of the loop), and with
`mode=raise` a dataset that fails inside the loop (its traceback goes through the DataLoader).

A result file is written where it runs; every line printed says what the program can see of torch."""

import sys
import warnings

import torch
import torch.utils.data.dataloader as dataloader_module
from torch.utils.data import DataLoader, Dataset, IterableDataset


class Squares(Dataset):
    def __init__(self, fail_at: int | None):
        self.fail_at = fail_at

    def __len__(self):
        return 16

    def __getitem__(self, i):
        if i == self.fail_at:
            raise ValueError(f"sample {i} is corrupt")
        return torch.tensor([float(i * i)])


class Stream(IterableDataset):
    def __repr__(self):
        return "Stream()"

    def __len__(self):
        return 2

    def __iter__(self):
        return iter(range(4))


def main(args: dict) -> None:
    print("loader of its module:", type(dataloader_module.__loader__).__name__)
    print("names:", DataLoader.__init__.__qualname__, DataLoader.__iter__.__qualname__)
    fail_at = 5 if args.get("mode") == "raise" else None
    loader = DataLoader(Squares(fail_at), batch_size=2, num_workers=0, pin_memory=True)
    total = 0.0
    for _epoch in range(2):
        for batch in loader:
            total += float(batch.sum())
    print("total", total)
    stream = DataLoader(Stream(), batch_size=None)
    print("len", len(stream))
    for _item in stream:  # the 3rd item is more than len() said: torch warns, naming this line
        pass
    with open("torch_loader.txt", "w") as f:
        f.write(f"total={total}\nwarnings filters={len(warnings.filters)}\n")


if __name__ == "__main__":
    main(dict(a.split("=", 1) for a in sys.argv[1:]))
