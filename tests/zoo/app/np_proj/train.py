"""np_proj's entry: `python train.py --case NAME` runs one of its cases (a small trainer each)."""

import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from npkit import arrays, frames, loader
from torch.utils.data import DataLoader


def case_np_copy_false() -> None:
    rng = np.random.default_rng(0)
    rows = [rng.normal(size=8) for _ in range(32)]
    batch = arrays.standardise(arrays.stack_rows(rows))
    print("batch", batch.shape, flush=True)


def case_np_uint16_tokens() -> None:
    path = os.path.join(tempfile.mkdtemp(), "train.bin")
    np.random.default_rng(0).integers(0, 500, size=4096).astype(np.uint16).tofile(path)
    data = DataLoader(loader.TokenWindows(path), batch_size=8, num_workers=2)
    emb, head = torch.nn.Embedding(512, 32), torch.nn.Linear(32, 512)
    for step, (x, y) in enumerate(data):
        logits = head(emb(x))
        loss = F.cross_entropy(logits.view(-1, 512), y.view(-1).long())
        print(f"step {step} loss {loss.item():.3f}", flush=True)


def case_np_category_codes() -> None:
    sheet = frames.sheet()
    x, y = frames.features(sheet), frames.labels(sheet)
    model = torch.nn.Linear(2, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}", flush=True)


def case_np_npz_closed_worker() -> None:
    path = os.path.join(tempfile.mkdtemp(), "feats.npz")
    rng = np.random.default_rng(0)
    np.savez(path, feats=rng.normal(size=(40, 6)).astype(np.float32), labels=rng.integers(0, 2, size=40))
    data = loader.NpzFeatures(path)
    print(f"{len(data)} samples", flush=True)
    model = torch.nn.Linear(6, 2)
    for step, (x, y) in enumerate(DataLoader(data, batch_size=8, num_workers=2)):
        print(f"step {step} loss {F.cross_entropy(model(x), y).item():.3f}", flush=True)


CASES = {name[len("case_") :]: fn for name, fn in globals().items() if name.startswith("case_")}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    CASES[args.case]()


if __name__ == "__main__":
    main()
