"""The main waits for a background exporter to mark the shared (frozen) run state done; the exporter, unable to
assign to the frozen object, makes a new one with dataclasses.replace, which the main never sees."""

import threading
import time
from dataclasses import dataclass, replace

import torch


@dataclass(frozen=True)
class RunState:
    phase: str = "training"
    exported: int = 0


STATE = {"current": RunState()}


def exporter(state: RunState) -> None:
    torch.save(torch.nn.Linear(4, 1).state_dict(), "/dev/null")
    state = replace(state, phase="done", exported=1)
    print(f"exporter: {state}", flush=True)


def main() -> None:
    state = STATE["current"]
    threading.Thread(target=exporter, args=(state,), name="exporter").start()
    print("waiting for the exporter", flush=True)
    while state.phase != "done":
        time.sleep(0.1)
