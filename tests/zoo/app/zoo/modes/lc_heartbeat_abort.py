"""The program's own heartbeat watchdog aborts the process (for a core dump) while the main evaluates.

A watchdog thread checks the training step counter every 0.5 s; after 3 s without progress it prints a line and
calls os.abort(). The main's evaluation at step 3 takes about 10 s (a full pass on the held-out set), so the
watchdog kills the run: SIGABRT, faulthandler's dump with the watchdog as the current thread.
"""

import faulthandler
import os
import threading
import time

import torch

PROGRESS = {"step": 0, "at": time.monotonic()}


def watch(limit: float) -> None:
    while True:
        time.sleep(0.5)
        if time.monotonic() - PROGRESS["at"] > limit:
            print(f"watchdog: no progress for {limit} s since step {PROGRESS['step']}; aborting", flush=True)
            os.abort()


def evaluate(model: torch.nn.Module) -> float:
    total = 0.0
    for _ in range(20):
        time.sleep(0.5)  # the held-out set, one shard at a time
        total += model(torch.ones(1, 4)).item()
    return total


def main() -> None:
    faulthandler.enable()
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(32, 4, generator=torch.Generator().manual_seed(0))
    PROGRESS["at"] = time.monotonic()
    threading.Thread(target=watch, args=(3.0,), name="watchdog", daemon=True).start()
    for step in range(6):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        PROGRESS.update(step=step, at=time.monotonic())
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        if step == 3:
            print(f"eval {evaluate(model):.4f}", flush=True)
