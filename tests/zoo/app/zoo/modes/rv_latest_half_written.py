"""A run saves every few steps by streaming the checkpoint to `step{N}.pt` and pointing `latest` at it first; the
scheduler preempts it (here: the launcher, this program, SIGKILLs the training child once 2 MB are on disk) while
the file is half written. The requeued run loads whatever `latest` names."""

import io
import multiprocessing as mp
import os
import signal
import tempfile
import time

import torch


def train_and_save(run_dir: str) -> None:
    buf = io.BytesIO()
    torch.save({"model": torch.randn(4000, 1000), "step": 300}, buf)
    data = buf.getvalue()
    with open(os.path.join(run_dir, "latest"), "w") as f:
        f.write("step300.pt")
    with open(os.path.join(run_dir, "step300.pt"), "wb") as f:
        for i in range(0, len(data), 1 << 20):
            f.write(data[i : i + (1 << 20)])
            f.flush()
            time.sleep(0.2)


def resume(run_dir: str) -> dict:
    with open(os.path.join(run_dir, "latest")) as f:
        name = f.read().strip()
    return torch.load(os.path.join(run_dir, name))


def main() -> None:
    run_dir = tempfile.mkdtemp(prefix="rv-")
    child = mp.get_context("fork").Process(target=train_and_save, args=(run_dir,))
    child.start()
    ckpt = os.path.join(run_dir, "step300.pt")
    while not os.path.exists(ckpt) or os.path.getsize(ckpt) < 2 << 20:
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.join()
    print(f"preempted: training child exited with {child.exitcode}; requeued", flush=True)
    state = resume(run_dir)
    print(f"resumed at step {state['step']}", flush=True)
