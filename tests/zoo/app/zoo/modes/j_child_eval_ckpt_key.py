"""Each epoch's checkpoint is scored in a separate process (a ProcessPoolExecutor of one, so that evaluation
overlaps the next epoch). The trainer was changed to save `{"state_dict": ...}` (Lightning's key); the evaluator
still reads `ckpt["model"]`. The child's KeyError comes back through the future at the next epoch's end."""

import multiprocessing as mp
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor

import torch
import torch.nn.functional as F


def build() -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))


def score_checkpoint(path: str) -> float:
    ckpt = torch.load(path)
    model = build()
    model.load_state_dict(ckpt["model"])
    g = torch.Generator().manual_seed(1)
    x, y = torch.randn(64, 8, generator=g), torch.randint(0, 3, (64,), generator=g)
    with torch.no_grad():
        return float((model(x).argmax(1) == y).float().mean())


def main() -> None:
    torch.manual_seed(0)
    out = tempfile.mkdtemp(prefix="j_ckpt-")
    model = build()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(128, 8), torch.randint(0, 3, (128,))
    pending = None
    with ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn")) as pool:
        for epoch in range(3):
            for i in range(0, 128, 32):
                loss = F.cross_entropy(model(x[i : i + 32]), y[i : i + 32])
                opt.zero_grad()
                loss.backward()
                opt.step()
            path = os.path.join(out, f"epoch{epoch}.pt")
            torch.save({"state_dict": model.state_dict(), "epoch": epoch}, path)
            if pending is not None:
                print(f"epoch {epoch - 1} val_acc {pending.result():.3f}", flush=True)
            pending = pool.submit(score_checkpoint, path)
            print(f"epoch {epoch} loss {float(loss):.4f}", flush=True)
