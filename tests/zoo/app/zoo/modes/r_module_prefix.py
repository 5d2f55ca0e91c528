"""A checkpoint saved from a DataParallel/DDP model (keys `module.*`) loaded into the bare model."""

from collections import OrderedDict

import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 8)
        self.fc2 = torch.nn.Linear(8, 2)


def saved_from_ddp() -> dict:
    return OrderedDict((f"module.{k}", v) for k, v in Net().state_dict().items())


def load_weights(model: Net, state: dict) -> None:
    model.load_state_dict(state)


def main() -> None:
    load_weights(Net(), saved_from_ddp())
