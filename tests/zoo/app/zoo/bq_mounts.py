"""A private mount for the held-out bq_ modes: what a container gives its processes (a small /dev/shm, a read-only
output volume), mounted in a mount namespace of the calling process's own (root), so the host never sees it."""

import ctypes
import os

_libc = ctypes.CDLL(None, use_errno=True)
_CLONE_NEWNS = 0x00020000
_MS_RDONLY = 0x1
_MS_REC = 0x4000
_MS_PRIVATE = 0x40000


def _check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def private_tmpfs(target: str, size_mb: int, readonly: bool = False) -> None:
    _check(_libc.unshare(_CLONE_NEWNS), "unshare")
    _check(_libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None), "mount --make-rprivate /")
    flags = _MS_RDONLY if readonly else 0
    _check(_libc.mount(b"tmpfs", target.encode(), b"tmpfs", flags, f"size={size_mb}m".encode()), f"mount {target}")
