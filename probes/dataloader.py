"""The data path alone: DataLoader workers passing tensors through shared memory.

Each sample is `tensors_per_sample` float32 tensors of `tensor_kb` KiB. Workers
put every tensor of a batch in shared memory; with
sharing_strategy=file_descriptor each one travels to the main process as an
open file descriptor, so holding on to received batches (`hold_batches`) keeps
those descriptors open. What this reproduces for real on a CPU box:

- fd exhaustion: sharing_strategy=file_descriptor, rlimit.nofile=128, workers,
  hold_batches -> "RuntimeError: received 0 items of ancdata" / "Too many open
  files" (the same cell passes with sharing_strategy=file_system or a high
  nofile);
- small /dev/shm: shm_mb=8 and tensors bigger than that per batch ->
  "ERROR: Unexpected bus error encountered in worker. This might be caused by
  insufficient shared memory (shm)." and "DataLoader worker (pid N) is killed
  by signal: Bus error.".

No model and no torch compute beyond filling the tensors: a failure here is the
data path's own.
"""

from __future__ import annotations

from crashmatrix.probes import common

DESCRIPTION = "DataLoader workers moving big tensors through shared memory (fd exhaustion, small /dev/shm)"

PARAMS: dict = {
    **common.COMMON_DEFAULTS,
    "steps": 20,
    "batch_size": 4,
    "num_workers": 2,
    "tensor_kb": 64,  # size of each tensor of a sample (float32)
    "tensors_per_sample": 8,  # tensors in each sample (a dict of them)
    "hold_batches": 0,  # keep references to this many received batches (-1: all)
    "samples": 0,  # dataset length; 0 = steps * batch_size
    "worker_fault": "",  # "" | segv | bus | abort | exit: the first worker dies that way (1st batch)
}


class BigTensors:
    """Map-style dataset of dicts of float32 tensors (plain class: picklable under spawn)."""

    def __init__(self, samples: int, tensor_kb: int, tensors_per_sample: int, worker_fault: str = ""):
        self.samples = samples
        self.numel = max(1, tensor_kb * 1024 // 4)
        self.tensors_per_sample = tensors_per_sample
        self.worker_fault = worker_fault

    def __len__(self) -> int:
        return self.samples

    def __getitem__(self, index: int):
        import torch

        if self.worker_fault and index == 0:
            _die(self.worker_fault)
        # index in the values so a reader can check what arrived
        return {
            f"t{j}": torch.full((self.numel,), float(index % 1000) + j / 100.0) for j in range(self.tensors_per_sample)
        }


def _die(how: str) -> None:
    """Make the current (worker) process die for real."""
    import os
    import signal

    from torch.utils.data import get_worker_info

    if get_worker_info() is None:  # only ever in a worker; the main process stays up to report it
        return
    if how == "exit":
        os._exit(3)
    sig = {"segv": signal.SIGSEGV, "bus": signal.SIGBUS, "abort": signal.SIGABRT, "kill": signal.SIGKILL}[how]
    os.kill(os.getpid(), sig)


def main(params: dict) -> dict:
    import torch
    from torch.utils.data import DataLoader

    p = common.with_defaults(params, PARAMS)
    common.device_for(p)  # device=cuda on a CPU box is a skip here too
    steps, batch_size = int(p["steps"]), int(p["batch_size"])
    tensor_kb, per_sample = int(p["tensor_kb"]), int(p["tensors_per_sample"])
    hold = int(p["hold_batches"])
    samples = int(p["samples"]) or steps * batch_size
    fault = str(p["worker_fault"] or "").strip().lower()
    if fault not in ("", "segv", "bus", "abort", "kill", "exit"):
        raise ValueError(f"worker_fault must be one of segv, bus, abort, kill, exit; got {fault!r}")

    dataset = BigTensors(samples, tensor_kb, per_sample, fault)
    kwargs = common.loader_kwargs(p)
    # A map-style dataset by duck typing (__len__, __getitem__), which DataLoader's annotation does not know.
    loader: DataLoader = DataLoader(dataset, shuffle=False, **kwargs)  # type: ignore[arg-type]

    metrics = common.Metrics()
    held: list = []
    received_mb = 0.0
    it = metrics.batches(loader)
    for step in range(steps):
        batch = next(it)
        common.check_batch(step, batch)
        received_mb += sum(t.numel() * t.element_size() for t in batch.values()) / 2**20
        if hold < 0 or len(held) < hold:
            held.append(batch)
        metrics.step()
    del it

    return metrics.result(
        received_mb=round(received_mb, 2),
        batch_mb=round(batch_size * per_sample * tensor_kb / 1024, 3),
        held_batches=len(held),
        open_fds=_open_fds(),
        pin_memory_effective=common.pin_memory_effective(p),
        num_workers=kwargs["num_workers"],
        start_method=torch.multiprocessing.get_start_method(),
        sharing_strategy=torch.multiprocessing.get_sharing_strategy(),
    )


def _open_fds() -> int | None:
    import os

    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return None
