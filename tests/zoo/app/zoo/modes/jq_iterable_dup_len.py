"""An IterableDataset that every worker reads whole: each record comes twice, and torch warns about __len__.

The stream reads a JSON-lines file and batches it itself (8 records a batch, `batch_size=None` in the loader, as
streaming pipelines do), and declares `__len__` (its batch count) so that a progress bar and a schedule can be sized.
It does not split the file by `get_worker_info()`, so each of the loader's 2 workers yields all 6 batches: the epoch
has 12 where `len(loader)` said 6. The run ends with exit 0, after torch's warning at the 7th batch that more were
fetched than the dataset's length.
"""

import json
import os
import tempfile

import torch
from torch.utils.data import DataLoader, IterableDataset

BATCH = 8


class JsonLines(IterableDataset):
    def __init__(self, path: str):
        self.path = path
        with open(path) as f:
            self.n = sum(1 for _ in f)

    def __len__(self) -> int:
        return self.n // BATCH

    def __iter__(self):
        xs, ys = [], []
        with open(self.path) as f:
            for line in f:
                rec = json.loads(line)
                xs.append(rec["x"])
                ys.append(rec["y"])
                if len(xs) == BATCH:
                    yield torch.tensor(xs), torch.tensor(ys)
                    xs, ys = [], []


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="jq-stream-"), "train.jsonl")
    with open(path, "w") as f:
        for i in range(48):
            f.write(json.dumps({"x": [i * 0.1, 1.0 - i * 0.01], "y": float(i % 2)}) + "\n")
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(JsonLines(path), batch_size=None, num_workers=2, multiprocessing_context="fork")
    print(f"epoch of {len(loader)} batches", flush=True)
    seen = 0
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(1), y.float())
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen += len(x)
        print(f"step {step} loss {loss.item():.4f}", flush=True)
    print(f"done: {seen} samples", flush=True)
