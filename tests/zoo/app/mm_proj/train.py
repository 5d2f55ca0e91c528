"""Train over memory-mapped shards: `python train.py --case NAME` (tests/zoo/HELDOUT80.md)."""

import argparse
import os
import tempfile

import torch
from mapkit.loader import make_loader
from mapkit.shards import load_tokens, open_shards, write_shards, write_tokens
from mapkit.train import Net, export_head, fit, open_checkpoint, resume, save_checkpoint


def case_empty_shard(out: str):
    paths = write_shards(out, [64, 0, 64])  # shard 1's writer crashed before its first row
    shards = open_shards(paths)
    print(f"{sum(len(s) for s in shards)} rows in {len(shards)} shards")


def case_worker_readonly_mask(out: str):
    (path,) = write_shards(out, [64])
    model = Net()
    print(f"loss {fit(model, make_loader(path)):.4f}")


def case_resume_overwrite(out: str):
    path = os.path.join(out, "last.pt")
    model = Net()
    fit(model, [torch.randn(8, 16) for _ in range(3)])
    save_checkpoint(model, path)
    state = open_checkpoint(path)
    print(f"mapped {len(state)} tensors from {path}", flush=True)
    export_head(model, path)  # the serving export, written over the checkpoint it was resumed from
    print("exported the head", flush=True)
    ema = resume(Net(), state)
    print(f"resumed {sum(p.numel() for p in ema.parameters())} parameters")


def case_from_file_dtype(out: str):
    path = os.path.join(out, "tokens.bin")
    write_tokens(path, 4096)
    tokens = load_tokens(path, 4096)
    print(f"{tokens.numel()} tokens, max id {int(tokens.max())}")


CASES = {
    "mm_empty_shard": case_empty_shard,
    "mm_worker_readonly_mask": case_worker_readonly_mask,
    "mm_resume_overwrite": case_resume_overwrite,
    "mm_from_file_dtype": case_from_file_dtype,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    torch.manual_seed(0)
    with tempfile.TemporaryDirectory() as out:
        CASES[args.case](out)


if __name__ == "__main__":
    main()
