"""A checkpoint writer thread saves, beside each epoch's weights, a YAML sidecar with the run's config; the config
is the OmegaConf DictConfig itself, handed to PyYAML's safe_dump."""

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import torch
import yaml
from omegaconf import OmegaConf

CFG = OmegaConf.create({"model": {"hidden": 16, "layers": 2}, "optim": {"lr": 0.05}, "epochs": 2})


def write_checkpoint(root: str, epoch: int, state: dict, cfg) -> str:
    path = os.path.join(root, f"epoch{epoch}.pt")
    torch.save(state, path)
    with open(path + ".yaml", "w") as f:
        yaml.safe_dump({"epoch": epoch, "config": cfg}, f)
    return path


def main() -> None:
    root = tempfile.mkdtemp()
    model = torch.nn.Linear(8, CFG.model.hidden)
    opt = torch.optim.SGD(model.parameters(), lr=CFG.optim.lr)
    with ThreadPoolExecutor(1, thread_name_prefix="ckpt") as writer:
        pending = []
        for epoch in range(CFG.epochs):
            loss = model(torch.randn(32, 8)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
            pending.append(writer.submit(write_checkpoint, root, epoch, model.state_dict(), CFG))
        for job in pending:
            print("saved", job.result(), flush=True)
