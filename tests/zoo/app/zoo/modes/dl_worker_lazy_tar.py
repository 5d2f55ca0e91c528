"""A dataset that unpacks its shard archive lazily, on first access, inside each DataLoader worker; the cached
shard is a half-written download (the first bytes of a tar.gz, the rest never arrived)."""

import os
import tarfile
import tempfile

import torch


class Shards(torch.utils.data.Dataset):
    def __init__(self, archive: str) -> None:
        self.archive = archive
        self.dest = None

    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int):
        if self.dest is None:
            self.dest = tempfile.mkdtemp(prefix="dl_shard_")
            with tarfile.open(self.archive) as tar:
                tar.extractall(self.dest, filter="data")
        return torch.full((4,), float(i))


def main() -> None:
    cache = tempfile.mkdtemp(prefix="dl_cache_")
    archive = os.path.join(cache, "shard-000.tar.gz")
    with open(archive, "wb") as f:
        f.write(b"\x1f\x8b\x08\x00" + bytes(range(256)) * 2)
    loader = torch.utils.data.DataLoader(Shards(archive), batch_size=8, num_workers=2)
    for batch in loader:
        print(batch.sum().item(), flush=True)
