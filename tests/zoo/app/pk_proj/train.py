"""picklekit's entry: `python train.py --case NAME` (tests/zoo/HELDOUT70.md)."""

import argparse  # noqa: I001  (picklekit is the project's own package, run from pk_proj/)
import os
import pickle
import tempfile

import torch

from picklekit import items
from picklekit.items import SqliteItems, TokenVocab, build_items
from picklekit.train import Classifier, StatsClient, fit
from picklekit.workers import make_loader

DIM = 6


def case_local_dataset_spawn() -> None:
    fit(Classifier(DIM), make_loader(build_items(64, DIM)))


def case_sqlite_spawn(tmp: str) -> None:
    fit(Classifier(DIM), make_loader(SqliteItems(os.path.join(tmp, "index.db"), 64, DIM)))


def case_ema_socket_deepcopy() -> None:
    model = Classifier(DIM, stats=StatsClient())
    fit(model, torch.utils.data.DataLoader(build_items(64, DIM), batch_size=8), ema=True)


def write_last_weeks_vocab(path: str) -> None:
    """The vocabulary as last week's run saved it, when the class was still called `Vocab`."""
    old = type("Vocab", (), {"__module__": "picklekit.items"})
    items.Vocab = old
    v = old()
    v.itos, v.stoi = ["<pad>", "a", "b"], {"<pad>": 0, "a": 1, "b": 2}
    torch.save({"vocab": v, "step": 1200}, path)
    del items.Vocab


def case_renamed_class_load(tmp: str) -> None:
    path = os.path.join(tmp, "vocab.pt")
    write_last_weeks_vocab(path)
    ckpt = torch.load(path, weights_only=False)
    vocab: TokenVocab = ckpt["vocab"]
    print("vocab", len(vocab.itos), pickle.HIGHEST_PROTOCOL)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--case", required=True)
    args = p.parse_args()
    print(f"case {args.case}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        if args.case == "pk_local_dataset_spawn":
            case_local_dataset_spawn()
        elif args.case == "pk_sqlite_spawn":
            case_sqlite_spawn(tmp)
        elif args.case == "pk_ema_socket_deepcopy":
            case_ema_socket_deepcopy()
        elif args.case == "pk_renamed_class_load":
            case_renamed_class_load(tmp)
        else:
            raise SystemExit(f"unknown case {args.case}")


if __name__ == "__main__":
    main()
