"""Deliberate ways to die, for crashmatrix's self-tests and demos: each one real."""

from __future__ import annotations

DESCRIPTION = "dies on purpose in the chosen way (segv, abort, bus, ill, fpe, kill, exit3, exception, hang, ...)"

PARAMS = {
    "mode": "pass",  # see MODES
    "flood_mb": 100,  # for mode=flood: megabytes written to stdout and stderr
    "grandchild_sleep": 3600,  # for mode=setsid_grandchild
    "alloc_mb": 4096,  # for mode=memory: one allocation of this size (with rlimit.as_mb below it)
}

MODES = (
    "pass",
    "segv",
    "abort",
    "bus",
    "ill",
    "fpe",
    "kill",
    "exit3",
    "exception",
    "hang",
    "hang_ignore_term",
    "flood",
    "setsid_grandchild",
    "memory",
    "worker_segv",
    "nan",
    "skip",
    "cuda_error_message",
    "segv_torch",
    "cuda_assert",
    "cuda_oom",
    "cuda_fork_worker",
    "cuda_index_forward",
    "cuda_loss_assert",
    "nccl_duplicate_gpu",
)
# Real GPU faults: each needs CUDA and is a skip (with the reason) on a box without it.
CUDA_MODES = (
    "cuda_assert",
    "cuda_oom",
    "cuda_fork_worker",
    "cuda_index_forward",
    "cuda_loss_assert",
    "nccl_duplicate_gpu",
)


def _die_by(signame: str) -> None:
    import os
    import signal

    os.kill(os.getpid(), getattr(signal, signame))


def _real_segv() -> None:
    import ctypes

    ctypes.string_at(0)  # a real read of address 0


def _worker_segv() -> None:
    """A real DataLoader worker that segfaults while the main process waits for its batch."""
    import torch
    from torch.utils.data import DataLoader, Dataset

    class Boom(Dataset):
        def __len__(self):
            return 8

        def __getitem__(self, i):
            if i == 3:
                _real_segv()
            return torch.zeros(4)

    for _batch in DataLoader(Boom(), batch_size=1, num_workers=2):
        pass


def _cuda_fault(mode: str) -> None:
    import torch

    from crashmatrix import probes

    if not torch.cuda.is_available():
        raise probes.Skip(f"mode={mode} needs CUDA; torch.cuda.is_available() is False")
    if mode == "cuda_assert":
        # An out-of-range index checked on the device: "CUDA error: device-side assert triggered".
        x = torch.zeros(4, device="cuda")
        x[torch.tensor([1 << 20], device="cuda")] = 1.0
        torch.cuda.synchronize()
    elif mode == "cuda_index_forward":
        _index_in_forward_seen_at_backward(torch)
    elif mode == "cuda_loss_assert":
        _bad_target_in_loss(torch)
    elif mode == "nccl_duplicate_gpu":
        _two_nccl_ranks_on_one_gpu()
    elif mode == "cuda_oom":
        torch.empty(1 << 50, dtype=torch.uint8, device="cuda")  # a petabyte: torch.OutOfMemoryError
    else:
        _cuda_in_forked_worker()


def _index_in_forward_seen_at_backward(torch) -> None:
    """An out-of-range row index in forward's index_select; the host only learns of it at a later sync.

    The kernel's device-side assert fails on the GPU while the host queues the rest of forward and
    backward; the error is raised wherever the host next waits (backward's, in the reports). The
    synchronous rerun raises it at the index_select line below.
    """
    weight = torch.randn(1000, 64, device="cuda", requires_grad=True)
    rows = torch.tensor([3, 1 << 20, 7], device="cuda")  # row 2**20 of 1000: out of range
    picked = weight.index_select(0, rows)  # the launch that fails
    hidden = torch.tanh(picked @ torch.randn(64, 4096, device="cuda"))
    hidden.square().mean().backward()
    torch.cuda.synchronize()


def _bad_target_in_loss(torch) -> None:
    """cross_entropy with a class index past the last class: nll_loss's device-side assert."""
    logits = torch.randn(8, 10, device="cuda", requires_grad=True)
    target = torch.tensor([1, 2, 3, 4, 5, 6, 7, 10], device="cuda")  # 10 of 10 classes: out of range
    loss = torch.nn.functional.cross_entropy(logits, target)  # the launch that fails
    loss.backward()
    torch.cuda.synchronize()


def _two_nccl_ranks_on_one_gpu() -> None:
    """Two NCCL ranks on one GPU, as when LOCAL_RANK or CUDA_VISIBLE_DEVICES maps every rank to device 0:
    NCCL refuses it itself ("Duplicate GPU detected"), a real NCCL failure that a one-GPU box can show."""
    import socket

    import torch.multiprocessing as mp

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(_nccl_rank_on_gpu0, args=(2, port), nprocs=2, join=True)


def _nccl_rank_on_gpu0(rank: int, world_size: int, port: int) -> None:
    import datetime
    import os

    import torch
    import torch.distributed as dist

    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    torch.cuda.set_device(0)  # every rank: the mistake
    dist.init_process_group("nccl", rank=rank, world_size=world_size, timeout=datetime.timedelta(seconds=60))
    total = torch.ones(1, device="cuda")
    dist.all_reduce(total)  # NCCL's communicator is made here, and refuses the second rank on GPU 0
    torch.cuda.synchronize()
    dist.destroy_process_group()


def _cuda_in_forked_worker() -> None:
    """CUDA initialised in the parent, then touched in a forked DataLoader worker: the classic report."""
    import multiprocessing

    import torch
    from torch.utils.data import DataLoader, Dataset

    class OnDevice(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return torch.ones(2, device="cuda").cpu()

    torch.zeros(1, device="cuda")
    ctx = multiprocessing.get_context("fork")
    for _batch in DataLoader(OnDevice(), batch_size=1, num_workers=1, multiprocessing_context=ctx):
        pass


def _end_if_asked(mode: str) -> None:
    """The modes that never return: a real death, an exit, an exception or a hang."""
    import os
    import signal
    import sys
    import time

    from crashmatrix import probes

    if mode == "segv":
        _real_segv()
    if mode == "segv_torch":
        import torch  # noqa: F401  (a torch program: its fatal-signal handler names the faulting library)

        _real_segv()
    if mode in ("abort", "bus", "ill", "fpe", "kill"):
        _die_by({"abort": "SIGABRT", "bus": "SIGBUS", "ill": "SIGILL", "fpe": "SIGFPE", "kill": "SIGKILL"}[mode])
    if mode == "exit3":
        sys.stdout.flush()
        os._exit(3)
    if mode == "exception":
        raise RuntimeError("fault probe: an ordinary Python exception")
    if mode == "hang":
        while True:
            time.sleep(3600)
    if mode == "hang_ignore_term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("ignoring SIGTERM", flush=True)
        while True:
            time.sleep(3600)
    if mode == "nan":
        raise probes.NonFinite("loss is nan at step 0 (fault probe)")
    if mode == "skip":
        raise probes.Skip("fault probe: asked to skip")
    if mode == "cuda_error_message":
        # What a CUDA fault looks like to the user, printed verbatim: a GPU cannot be faulted on this CPU box.
        raise RuntimeError("CUDA error: an illegal instruction was encountered")


def main(params: dict) -> dict:
    import os

    mode = str(params.get("mode", "pass"))
    if mode == "pass":
        return {"steps": 1}
    _end_if_asked(mode)
    if mode == "flood":
        chunk = ("x" * 1023 + "\n").encode()
        for _ in range(int(params.get("flood_mb", 100)) * 1024):
            os.write(1, chunk)
            os.write(2, chunk)
        return {"steps": 1}
    if mode == "setsid_grandchild":
        import subprocess

        # A grandchild that leaves our session and outlives us: the supervisor must still end it.
        subprocess.Popen(["sleep", str(params.get("grandchild_sleep", 3600))], start_new_session=True)
        print("started a setsid'd grandchild", flush=True)
        return {"steps": 1}
    if mode == "memory":
        block = bytearray(int(params.get("alloc_mb", 4096)) * 1024 * 1024)
        return {"steps": len(block)}
    if mode == "worker_segv":
        _worker_segv()
        return {"steps": 1}
    if mode in CUDA_MODES:
        _cuda_fault(mode)
        return {"steps": 1}
    raise ValueError(f"fault probe: unknown mode {mode!r} (modes: {', '.join(MODES)})")
