"""An agent's evaluation rollout logged as a W&B video (frames stacked as T, C, H, W uint8) after each epoch."""

import os
import tempfile

import numpy as np
import torch
import wandb


def rollout(policy: torch.nn.Module, steps: int = 12) -> np.ndarray:
    frames = []
    pos = torch.zeros(2)
    for _ in range(steps):
        with torch.no_grad():
            pos = (pos + policy(pos).tanh() * 2).clamp(0, 15)
        frame = np.zeros((3, 16, 16), dtype=np.uint8)
        frame[:, int(pos[1]), int(pos[0])] = 255
        frames.append(frame)
    return np.stack(frames)


def main() -> None:
    os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_SILENT", "true")
    run = wandb.init(project="wb-rl", dir=tempfile.mkdtemp(prefix="wb_"))
    torch.manual_seed(0)
    policy = torch.nn.Linear(2, 2)
    opt = torch.optim.SGD(policy.parameters(), lr=0.1)
    for epoch in range(2):
        loss = (policy(torch.randn(32, 2)) - 1).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
        video = wandb.Video(rollout(policy), fps=4, caption=f"epoch {epoch}")
        run.log({"rollout": video, "loss": loss.item()})
    run.finish()
