"""A last-checkpoint hook registered with atexit at start ("never lose a run"); the settings file's `optim:`
section is empty (YAML gives None), so the main fails before the model exists, and at exit the hook fails too:
Python prints it as `Exception ignored in atexit callback`, after the main's traceback."""

import atexit
import os
import tempfile

import torch
import yaml

STATE: dict = {}
SETTINGS = """
model:
  width: 32
optim:
  # lr: 0.1   (commented out while sweeping)
epochs: 2
"""


def save_last() -> None:
    path = os.path.join(tempfile.gettempdir(), "ex_atexit_last.pt")
    torch.save(STATE["model"].state_dict(), path)
    print(f"saved the last checkpoint to {path}", flush=True)


def main() -> None:
    atexit.register(save_last)
    cfg = yaml.safe_load(SETTINGS)
    print(f"settings: {cfg}", flush=True)
    lr = cfg["optim"]["lr"]
    model = torch.nn.Linear(8, cfg["model"]["width"])
    STATE["model"] = model
    torch.optim.SGD(model.parameters(), lr=lr)
