"""A run takes `resume.lock` while it writes its checkpoint and removes it after; a run killed mid-save left the
lock behind. The requeued run waits for the lock to go before it reads the checkpoint, with no time limit and no
check that the lock's owner is still alive."""

import os
import tempfile
import time


def wait_for_checkpoint(run_dir: str) -> str:
    lock = os.path.join(run_dir, "resume.lock")
    while os.path.exists(lock):
        time.sleep(0.2)
    return os.path.join(run_dir, "last.pt")


def main() -> None:
    run_dir = tempfile.mkdtemp(prefix="rv-")
    with open(os.path.join(run_dir, "resume.lock"), "w") as f:
        f.write("4242\n")
    print("waiting for the checkpoint writer to finish", flush=True)
    path = wait_for_checkpoint(run_dir)
    print(f"resuming from {path}", flush=True)
