"""Checkpoints are uploaded by fire-and-forget asyncio tasks (create_task, no reference kept, never awaited); the
upload's destination folder does not exist, the task dies with FileNotFoundError, and asyncio only reports it as
`Task exception was never retrieved` when the task is collected. The program goes on and fails later, when the
evaluation reads the uploaded copy."""

import asyncio
import gc
import os
import shutil
import tempfile

import torch


async def upload(src: str, remote_dir: str) -> None:
    await asyncio.sleep(0.01)
    shutil.copy(src, os.path.join(remote_dir, "checkpoints", os.path.basename(src)))


async def train(folder: str, remote_dir: str) -> str:
    model = torch.nn.Linear(8, 2)
    path = ""
    for epoch in range(3):
        path = os.path.join(folder, f"epoch{epoch}.pt")
        torch.save(model.state_dict(), path)
        asyncio.create_task(upload(path, remote_dir))
        await asyncio.sleep(0.05)
        print(f"epoch {epoch}: saved {os.path.basename(path)}, upload started", flush=True)
    return os.path.basename(path)


def evaluate(remote_dir: str, name: str) -> None:
    state = torch.load(os.path.join(remote_dir, "checkpoints", name))
    print(f"evaluating {name}: {sorted(state)}")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as remote_dir:
        last = asyncio.run(train(folder, remote_dir))
        gc.collect()
        evaluate(remote_dir, last)
