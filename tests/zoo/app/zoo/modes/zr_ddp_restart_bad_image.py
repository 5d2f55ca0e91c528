"""torchrun --max-restarts=1, 2 gloo ranks, each with a DataLoader of 2 workers over its own shard of PNG files.

Rank 1's shard holds a 0-byte file (a download that failed); the worker that loads it raises PIL's
UnidentifiedImageError, rank 1 re-raises it. The elastic agent restarts both ranks once; the same file fails the
same way again, and the job ends.
"""

import io
import os
import tempfile

import numpy as np
import torch
import torch.distributed as dist
from PIL import Image
from torch.utils.data import DataLoader, Dataset


def write_shard(rank: int) -> list:
    folder = os.path.join(tempfile.gettempdir(), f"zr-images-{os.environ.get('TORCHELASTIC_RUN_ID', 'x')}-{rank}")
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i in range(16):
        path = os.path.join(folder, f"{i:03d}.png")
        if rank == 1 and i == 9:
            open(path, "wb").close()  # the failed download
        else:
            buf = io.BytesIO()
            Image.fromarray(np.full((8, 8, 3), i * 10, np.uint8)).save(buf, format="PNG")
            with open(path, "wb") as f:
                f.write(buf.getvalue())
        paths.append(path)
    return paths


class Images(Dataset):
    def __init__(self, paths: list):
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int) -> torch.Tensor:
        with Image.open(self.paths[i]) as img:
            return torch.from_numpy(np.asarray(img.convert("RGB"), dtype=np.float32)).flatten()


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    restart = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
    print(f"[rank{rank}] attempt {restart}", flush=True)
    loader = DataLoader(Images(write_shard(rank)), batch_size=4, num_workers=2)
    model = torch.nn.Linear(192, 1)
    for step, x in enumerate(loader):
        loss = model(x / 255).pow(2).mean()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        model.zero_grad()
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
