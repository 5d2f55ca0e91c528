"""sharekit's trainer: `python train.py --case NAME` runs one of its pipelines (tests/zoo/HELDOUT53.md)."""

import argparse
import os
import tempfile
import time

import torch
from sharekit import data, pools, producers


def lm_steps(context: str | None) -> None:
    path = data.write_tokens(8192)
    model = torch.nn.Sequential(torch.nn.Embedding(500, 32), torch.nn.Linear(32, 500))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(data.loader(path, block=32, workers=2, context=context)):
        loss = torch.nn.functional.cross_entropy(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.3f}", flush=True)


def shared_features() -> None:
    feats = producers.features_from_child(128, 16)
    print(f"features {tuple(feats.shape)} mean {feats.mean().item():.3f}", flush=True)


def logged_steps(steps: int, max_records: int) -> None:
    writer, conn = producers.start_writer(os.path.join(tempfile.mkdtemp(), "metrics.tsv"), max_records)
    w = torch.zeros(16, requires_grad=True)
    for step in range(steps):
        loss = (w - 1).pow(2).sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.05 * w.grad
            w.grad = None
        time.sleep(0.05)
        conn.send((step, loss.item()))
    writer.join()


def scored_shards() -> None:
    scores = pools.score_shards(list(range(8)))
    print(f"scores {[round(s, 2) for s in scores]}", flush=True)


CASES = {
    "mp_loader_mmap_spawn": lambda: lm_steps("spawn"),
    "mp_shm_unlinked_by_child": shared_features,
    "mp_pipe_writer_capped": lambda: logged_steps(20, 8),
    "mp_pool_queue_arg": scored_shards,
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    CASES[args.case]()


if __name__ == "__main__":
    main()
