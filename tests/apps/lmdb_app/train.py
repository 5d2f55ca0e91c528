"""A training script reading an LMDB dataset (dataset.py): `data=PATH`, or `prepare=PATH` to write one.

A `data.mdb` cut short (a copy that stopped, a full disk) makes lmdb's C extension read pages past
the end of its memory map: the process dies by SIGBUS inside lmdb/cpython.cpython-*.so."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
from dataset import LmdbDataset, write_database  # noqa: E402
from torch.utils.data import DataLoader  # noqa: E402


def main(args: dict) -> None:
    if "prepare" in args:
        write_database(args["prepare"], samples=int(args.get("samples", 200)))
        return
    loader = DataLoader(LmdbDataset(args["data"]), batch_size=8, shuffle=True)
    model = torch.nn.Linear(64, 10)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"done, loss {loss.item():.3f}")


if __name__ == "__main__":
    main(dict(a.split("=", 1) for a in sys.argv[1:]))
