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
    "pass", "segv", "abort", "bus", "ill", "fpe", "kill", "exit3", "exception", "hang", "hang_ignore_term",
    "flood", "setsid_grandchild", "memory", "worker_segv", "nan", "skip", "cuda_error_message", "segv_torch",
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


def main(params: dict) -> dict:
    import os
    import signal
    import sys
    import time

    import probes

    mode = str(params.get("mode", "pass"))
    if mode == "pass":
        return {"steps": 1}
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
    if mode == "nan":
        raise probes.NonFinite("loss is nan at step 0 (fault probe)")
    if mode == "skip":
        raise probes.Skip("fault probe: asked to skip")
    if mode == "cuda_error_message":
        # What a CUDA fault looks like to the user, printed verbatim: a GPU cannot be faulted on this CPU box.
        raise RuntimeError("CUDA error: an illegal instruction was encountered")
    raise ValueError(f"fault probe: unknown mode {mode!r} (modes: {', '.join(MODES)})")
