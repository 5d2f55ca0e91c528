"""While the main builds the model and warms up, a background thread loads the checkpoint to resume from, EMA
weights included; the checkpoint was written by an older version of the program, before it kept an EMA."""

import os
import tempfile
import threading
import time

import torch
from torch import nn

LOADED = {}


def load_in_background(path: str, ema: nn.Module) -> None:
    state = torch.load(path)
    ema.load_state_dict(state["ema"])
    LOADED["model"] = state["model"]


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="rv-"), "last.pt")
    model = nn.Linear(8, 2)
    torch.save({"model": model.state_dict(), "step": 400}, path)
    ema = nn.Linear(8, 2)
    loader = threading.Thread(target=load_in_background, args=(path, ema), name="ckpt-loader")
    loader.start()
    time.sleep(0.5)
    print("warm-up done", flush=True)
    loader.join()
    model.load_state_dict(LOADED["model"])
    print("resumed", flush=True)
