"""An evaluation child process (multiprocessing, fork) that starts a heartbeat thread (not a daemon) and returns
when its work is done; the thread waits for a stop event nobody sets, so the child never exits at its end, and
the main waits in join() for ever."""

import multiprocessing as mp
import threading

import torch

STOP = threading.Event()


def heartbeat() -> None:
    while not STOP.wait(0.5):
        pass


def evaluate() -> None:
    threading.Thread(target=heartbeat, name="heartbeat").start()
    acc = (torch.randn(32, 4).argmax(1) == 0).float().mean().item()
    print(f"eval accuracy {acc:.3f}", flush=True)


def main() -> None:
    p = mp.get_context("fork").Process(target=evaluate, name="evaluator")
    p.start()
    p.join()
    print("evaluation finished", flush=True)
