"""The cases `train.py --case NAME` runs."""

import sys

import torch
from torch.utils.data import DataLoader

from qerun import ckpt, sweep
from qerun.data import Crops, Embedded
from qerun.guard import cap_worker_memory
from qerun.model import Net, train_steps
from qerun.workdir import workdir


def resume_compiled() -> None:
    """Pretrain with torch.compile (the config's default), then fine-tune an eager model from that checkpoint."""
    path = workdir() / "pretrain.pt"
    model = torch.compile(Net(), backend="eager")  # inductor needs a compiler; the keys are the same
    train_steps(model, 2, "pretrain")
    torch.save(model.state_dict(), path)
    finetune = Net()
    finetune.load_state_dict(torch.load(path, weights_only=True))
    train_steps(finetune, 2, "finetune")


def hydra_multirun_pg() -> None:
    """The sweep over two learning rates, as `python -m qerun.sweep -m lr=0.1,0.01` runs it."""
    wd = workdir()
    sys.argv = [sys.argv[0], "-m", "lr=0.1,0.01", f"rendezvous={wd}/pg", f"hydra.sweep.dir={wd}/multirun"]
    sweep.job()


def async_ckpt_rotate() -> None:
    """Save every 5 steps through the writer thread, keep the newest folder, export the latest at the end."""
    root = workdir()
    model, saver = Net(), ckpt.AsyncSaver()
    for step in (5, 10):
        train_steps(model, 1, f"step {step}:")
        folder = root / f"step-{step}"
        folder.mkdir()
        saver.save(model.state_dict(), folder / "model.pt")
        ckpt.rotate(root, keep=1)
    saver.close()
    path = ckpt.latest(root)
    state = torch.load(path, weights_only=True)
    print(f"exported {path.parent.name}: {len(state)} tensors", flush=True)


def spawn_table_rows() -> None:
    """Train on the feature table's rows with spawn workers (the project's decoder threads do not survive fork)."""
    loader = DataLoader(Embedded(), batch_size=64, num_workers=2, multiprocessing_context="spawn")
    head = torch.nn.Linear(1024, 1)
    for step, x in enumerate(loader):
        print(f"step {step} mean {head(x).mean().item():.4f}", flush=True)


def capped_workers() -> None:
    """Crops through 2 workers, each under the project's memory guard."""
    loader = DataLoader(Crops(), batch_size=8, num_workers=2, worker_init_fn=cap_worker_memory)
    for step, x in enumerate(loader):
        print(f"step {step} batch {tuple(x.shape)}", flush=True)


CASES = {
    "resume_compiled": resume_compiled,
    "hydra_multirun_pg": hydra_multirun_pg,
    "async_ckpt_rotate": async_ckpt_rotate,
    "spawn_table_rows": spawn_table_rows,
    "capped_workers": capped_workers,
}
