"""Saved activations offloaded to disk with `saved_tensors_hooks` (the pattern of PyTorch's autograd notes:
pack saves to a file in a temporary folder, unpack loads it), the training step run in a trainer thread; the
temporary folder is a `with` block around the forward only, so it is deleted before the backward unpacks."""

import os
import tempfile
import threading
import uuid

import torch

STATE: dict = {}


def offloaded_forward(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    with tempfile.TemporaryDirectory(prefix="act-offload-") as tmp_dir:

        def pack(t: torch.Tensor) -> str:
            name = os.path.join(tmp_dir, f"{uuid.uuid4().hex}.pt")
            torch.save(t, name)
            return name

        def unpack(name: str) -> torch.Tensor:
            return torch.load(name)

        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            return torch.nn.functional.mse_loss(model(x), y)


def trainer() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.Tanh(), torch.nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(3):
        x, y = torch.randn(16, 32), torch.randn(16, 1)
        loss = offloaded_forward(model, x, y)
        print(f"step {step} forward done, loss {loss.item():.4f}", flush=True)
        opt.zero_grad()
        loss.backward()
        opt.step()
    STATE["loss"] = loss.item()


def main() -> None:
    thread = threading.Thread(target=trainer, name="trainer")
    thread.start()
    thread.join()
    if "loss" not in STATE:
        raise SystemExit("the trainer thread ended without a loss")
    print(f"final loss {STATE['loss']:.4f}")
