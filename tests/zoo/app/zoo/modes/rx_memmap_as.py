"""Token shards read with np.memmap (a 1 GiB file, sparse here); the script first holds itself to the job's memory
request (RLIMIT_AS, 256 MiB past what it uses), and mapping the whole file needs 1 GiB of address space: mmap is
refused."""

import os
import resource
import tempfile

import numpy as np


def vm_size() -> int:
    with open("/proc/self/status") as f:
        line = next(x for x in f if x.startswith("VmSize:"))
    return int(line.split()[1]) * 1024


def open_tokens(path: str) -> np.memmap:
    return np.memmap(path, dtype=np.uint16, mode="r")


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="rx_tokens_"), "train.bin")
    with open(path, "wb") as f:
        f.truncate(1 << 30)
    resource.setrlimit(resource.RLIMIT_AS, (vm_size() + (256 << 20), resource.RLIM_INFINITY))
    tokens = open_tokens(path)
    print("tokens", tokens.shape[0], flush=True)
    os.remove(path)
