"""The program unpacks the cached dataset archive with the system's tar in a child process (check=True); the
archive is a download cut off half way."""

import gzip
import io
import os
import subprocess
import tarfile
import tempfile

import torch


def main() -> None:
    cache = tempfile.mkdtemp(prefix="dl_cache_")
    dest = tempfile.mkdtemp(prefix="dl_data_")
    archive = os.path.join(cache, "digits.tar.gz")
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        data = torch.randn(4096).numpy().tobytes()
        info = tarfile.TarInfo("digits/train.bin")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    blob = gzip.compress(raw.getvalue())
    with open(archive, "wb") as f:
        f.write(blob[: len(blob) // 2])
    subprocess.run(["tar", "-xzf", archive, "-C", dest], check=True)
    print(os.listdir(dest))
