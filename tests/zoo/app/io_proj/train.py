"""io_proj's trainer: `python train.py --case NAME` (tests/zoo/HELDOUT61.md, truth_heldout61.yaml)."""

import argparse
import tempfile
from pathlib import Path

import torch
from iokit import ckpt, loader, scratch, shards
from torch.utils.data import DataLoader


def model() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 512), torch.nn.ReLU(), torch.nn.Linear(512, 1024))


def train_steps(m: torch.nn.Module, steps: int) -> None:
    opt = torch.optim.SGD(m.parameters(), lr=0.01)
    for step in range(steps):
        loss = m(torch.randn(8, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def io_ckpt_enospc() -> None:
    """Checkpoints on a 1 MiB scratch tmpfs; the model's state is about 2 MiB."""
    scratch.enter_private_mounts()
    folder = scratch.scratch("1m")
    m = model()
    train_steps(m, 2)
    ckpt.save({"model": m.state_dict()}, f"{folder}/step2.pt")


def io_run_dir_file() -> None:
    """A run's metrics folder under `out/latest/`, where `latest` is the pointer file an earlier run wrote."""
    out = Path(tempfile.mkdtemp(prefix="io-runs-"))
    ckpt.write_pointer(out, "run-0")
    train_steps(model(), 1)
    d = ckpt.run_dir(out, "latest")
    (d / "loss.txt").write_text("0.1")


def io_shard_name_long() -> None:
    """Shards named after their full augmentation recipe."""
    folder = tempfile.mkdtemp(prefix="io-shards-")
    recipe = {f"aug{i}_{name}": 0.125 * i for i, name in enumerate(["flip", "crop", "jitter", "blur", "noise"] * 5)}
    for index in range(2):
        path = shards.write_shard(folder, recipe, index, torch.randn(64, 16))
        print(f"wrote {path}", flush=True)


def io_worker_readonly() -> None:
    """The decode cache on a scratch the trainer mounted read-only (meant for a shared, pre-filled cache)."""
    scratch.enter_private_mounts()
    cache = scratch.scratch("4m", read_only=True)
    data = loader.CachedDataset(32, cache)
    dl = DataLoader(data, batch_size=8, num_workers=2)
    m = model()
    for i, x in enumerate(dl):
        print(f"batch {i} {tuple(m(x).shape)}", flush=True)


CASES = {f.__name__: f for f in [io_ckpt_enospc, io_run_dir_file, io_shard_name_long, io_worker_readonly]}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--case", required=True, choices=sorted(CASES))
    CASES[p.parse_args().case]()


if __name__ == "__main__":
    main()
