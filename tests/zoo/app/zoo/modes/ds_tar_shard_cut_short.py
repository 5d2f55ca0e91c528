"""Samples streamed from tar shards by forkserver DataLoader workers, one shard list per worker; the download of
shard 3 was cut short, so its last member ends before its header says."""

import io
import os
import tarfile
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


def write_shards(folder: str, shards: int, per_shard: int) -> list[str]:
    rng = np.random.default_rng(3)
    paths = []
    for s in range(shards):
        path = os.path.join(folder, f"shard-{s:05d}.tar")
        with tarfile.open(path, "w") as tar:
            for k in range(per_shard):
                data = rng.standard_normal(256).astype(np.float32).tobytes()
                info = tarfile.TarInfo(f"{s:05d}_{k:04d}.f32")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        paths.append(path)
    with open(paths[3], "r+b") as f:  # the interrupted download
        f.truncate(1536 * (per_shard - 1) + 512 + 300)
    return paths


class TarShards(IterableDataset):
    def __init__(self, paths: list[str]):
        self.paths = paths

    def __iter__(self):
        info = get_worker_info()
        mine = self.paths[info.id :: info.num_workers] if info else self.paths
        for path in mine:
            with tarfile.open(path) as tar:
                for member in tar:
                    x = np.frombuffer(tar.extractfile(member).read(), dtype=np.float32)
                    yield torch.from_numpy(x.copy()), int(member.name[-6]) % 2


def main() -> None:
    paths = write_shards(tempfile.mkdtemp(prefix="ds_tar_"), 4, 12)
    loader = DataLoader(TarShards(paths), batch_size=6, num_workers=2, multiprocessing_context="forkserver")
    model = torch.nn.Linear(256, 2)
    steps = 0
    for x, y in loader:
        torch.nn.functional.cross_entropy(model(x), y).backward()
        steps += 1
    print(f"{steps} steps", flush=True)
