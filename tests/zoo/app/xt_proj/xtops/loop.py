"""The training cases: each builds a model and a loader and trains a few steps."""

import tempfile

import torch
from torch.utils.data import DataLoader

from xtops import data, kernels, losses


def model(classes: int = 5) -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 32 * 32, classes))


def fit(loader, classes: int = 5, steps: int = 4) -> None:
    net = model(classes)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = losses.smoothed_ce(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f}", flush=True)
        if step + 1 == steps:
            break


def target_check() -> None:
    """The dataset keeps class 7 from the 8-class export; the head has 5 classes."""
    kernels.ext()
    ds = data.Images()
    ds.labels[5] = 7
    fit(DataLoader(ds, batch_size=8))


def counts_segv() -> None:
    """Class-balanced weights from the label export, read back with the wrong dtype."""
    kernels.ext()
    with tempfile.TemporaryDirectory() as folder:
        labels = data.read_labels(data.write_labels(folder))
        print(f"{labels.numel()} labels, first {int(labels[0])}", flush=True)
        weights = losses.class_weights(labels, 5)
    print("weights", weights.tolist())


def fork_worker_sigill() -> None:
    """Mixup in fork workers on the ISA the cluster config names."""
    kernels.ext()
    ds = data.Mixup(isa="avx512fp16")
    fit(DataLoader(ds, batch_size=4, num_workers=2, multiprocessing_context="fork"))


def spawn_worker_crop() -> None:
    """A 40-pixel crop (from the 64-pixel config) on 32-pixel images, in spawn workers."""
    kernels.ext()
    ds = data.Cropped(crop=40)
    fit(DataLoader(ds, batch_size=4, num_workers=2, multiprocessing_context="spawn"))


def spawn_worker_op_missing() -> None:
    """The operators are registered in the main process only; the spawn workers call torch.ops.xt.jitter."""
    kernels.ext()
    print("registered:", torch.ops.xt.jitter.default, flush=True)
    ds = data.Jittered()
    fit(DataLoader(ds, batch_size=4, num_workers=2, multiprocessing_context="spawn"))


def hang_worker_stats_mutex() -> None:
    """The extension's statistics flusher thread runs in the main; fork workers record into the same mutex."""
    kernels.ext().start_stats_flusher()
    ds = data.Logged()
    fit(DataLoader(ds, batch_size=4, num_workers=2, multiprocessing_context="fork"))


CASES = {
    f.__name__: f
    for f in [
        target_check,
        counts_segv,
        fork_worker_sigill,
        spawn_worker_crop,
        spawn_worker_op_missing,
        hang_worker_stats_mutex,
    ]
}
