"""After pretraining, a linear probe runs in a child process (multiprocessing, fork) on the saved checkpoint;
it renames the MoCo query encoder's keys (`encoder_q.` -> ``) and deletes the rest while iterating over the
state dict itself (no `list(...)`). The main checks the child's exit code."""

import multiprocessing as mp
import os
import sys
import tempfile

import torch
from torch import nn


def backbone() -> nn.Module:
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32))


def linear_probe(ckpt: str) -> None:
    state_dict = torch.load(ckpt)["state_dict"]
    for k in state_dict.keys():
        if k.startswith("encoder_q.") and not k.startswith("encoder_q.fc"):
            state_dict[k[len("encoder_q.") :]] = state_dict[k]
        del state_dict[k]
    net = backbone()
    net.load_state_dict(state_dict)
    print("linear probe: backbone loaded", flush=True)


def main() -> None:
    torch.manual_seed(0)
    moco = nn.ModuleDict({"encoder_q": backbone(), "encoder_k": backbone()})
    ckpt = os.path.join(tempfile.mkdtemp(), "checkpoint_0001.pth.tar")
    torch.save({"epoch": 1, "state_dict": moco.state_dict()}, ckpt)
    print(f"pretraining checkpoint saved: {ckpt}", flush=True)
    child = mp.get_context("fork").Process(target=linear_probe, args=(ckpt,), name="lincls")
    child.start()
    child.join()
    if child.exitcode != 0:
        sys.exit(f"linear probe failed (exit code {child.exitcode})")
