"""A checkpoint saved by a model of hidden width 32 loaded into one built with width 64: load_state_dict refuses
(`size mismatch for body.weight: copying a param with shape ... from checkpoint`)."""

import os
import tempfile

import torch


class Net(torch.nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.body = torch.nn.Linear(8, hidden)
        self.head = torch.nn.Linear(hidden, 2)


def restore(path: str, hidden: int) -> Net:
    net = Net(hidden)
    net.load_state_dict(torch.load(path, weights_only=True))
    return net


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "net.pt")
    torch.save(Net(hidden=32).state_dict(), path)
    restore(path, hidden=64)  # the config's width changed since the checkpoint was written
