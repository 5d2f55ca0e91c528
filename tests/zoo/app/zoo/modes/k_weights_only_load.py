"""torch.load of a checkpoint holding a program's own class, under torch's default weights_only=True."""

import os
import tempfile

import torch


class RunState:
    def __init__(self):
        self.epoch = 3


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "state.pt")
    torch.save({"state": RunState(), "w": torch.zeros(2)}, path)
    print(torch.load(path)["state"].epoch)
