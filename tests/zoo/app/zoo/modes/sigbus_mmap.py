"""A memory-mapped shard truncated by another writer while mapped: reading past its new end is SIGBUS."""

import mmap
import os
import tempfile


def read_shard(view: mmap.mmap, offset: int) -> int:
    return view[offset]


def main() -> None:
    fd, path = tempfile.mkstemp(suffix=".shard")
    os.write(fd, b"\0" * 65536)
    view = mmap.mmap(fd, 65536)
    os.truncate(path, 0)  # another process rewrote the shard
    os.unlink(path)
    print(read_shard(view, 40000))
