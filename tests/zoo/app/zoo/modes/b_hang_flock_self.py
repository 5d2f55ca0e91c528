"""The feature cache is guarded by an exclusive fcntl.flock on its lock file, taken by a small context manager.
prepare() holds it while it writes the shards, and the index step it calls takes the same lock again through a
second CacheLock: flock treats the two open files as two owners, so the process waits for itself, forever (no
thread, no worker process; nothing printed after the shard lines)."""

import fcntl
import os
import tempfile


class CacheLock:
    def __init__(self, path: str):
        self.path, self.fd = path, None

    def __enter__(self):
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def index_shards(root: str) -> list[str]:
    with CacheLock(os.path.join(root, ".lock")):
        return sorted(os.listdir(root))


def prepare(root: str) -> list[str]:
    with CacheLock(os.path.join(root, ".lock")):
        for i in range(3):
            with open(os.path.join(root, f"shard-{i}.bin"), "wb") as f:
                f.write(os.urandom(1024))
            print(f"shard {i} written", flush=True)
        return index_shards(root)


def main() -> None:
    root = tempfile.mkdtemp(prefix="bcache-")
    names = prepare(root)
    print(f"{len(names)} files indexed")
