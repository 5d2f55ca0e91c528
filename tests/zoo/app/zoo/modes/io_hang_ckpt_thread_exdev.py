"""Asynchronous checkpointing: a saver thread writes the checkpoint to /dev/shm (fast) and moves it into the
project's checkpoint folder with `os.rename`, which cannot cross filesystems; the thread dies, and the main,
which waits for the checkpoint to appear before it prunes older ones, polls for it for ever."""

import os
import threading
import time

import torch

CKPT_DIR = os.path.join(os.getcwd(), "outputs", "io_hang_ckpt_thread_exdev")


def saver(state: dict, final: str) -> None:
    tmp = f"/dev/shm/io-ckpt-{os.getpid()}.pt"
    torch.save(state, tmp)
    os.rename(tmp, final)


def main() -> None:
    os.makedirs(CKPT_DIR, exist_ok=True)
    final = os.path.join(CKPT_DIR, "step_10.pt")
    if os.path.exists(final):
        os.remove(final)
    model = torch.nn.Linear(32, 8)
    threading.Thread(target=saver, args=(model.state_dict(), final), name="ckpt-saver", daemon=True).start()
    print("step 10: checkpoint handed to the saver thread", flush=True)
    while not os.path.exists(final):
        time.sleep(0.2)
    print("checkpoint in place, pruning older ones", flush=True)
