"""The deployment's limits, applied by the program itself so that a run on a workstation meets what the container
gives (the container profile in PROFILE): a small /dev/shm and scratch tmpfs, an open-file limit, an address-space
cap. Each applies to this process and its children only: a private mount namespace (root, as in the container),
resource.setrlimit."""

import ctypes
import os
import resource

PROFILE = {"shm_mb": 16, "scratch_mb": 32, "nofile": 256, "as_headroom_mb": 48}

_libc = ctypes.CDLL(None, use_errno=True)
_CLONE_NEWNS = 0x00020000
_MS_REC = 0x4000
_MS_PRIVATE = 0x40000


def _check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def private_tmpfs(target: str, size_mb: int) -> None:
    """Mount a tmpfs of size_mb on target, seen by this process and the processes it starts only."""
    _check(_libc.unshare(_CLONE_NEWNS), "unshare")
    _check(_libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None), "mount --make-rprivate /")
    _check(_libc.mount(b"tmpfs", target.encode(), b"tmpfs", 0, f"size={size_mb}m".encode()), f"mount {target}")


def container_shm() -> None:
    private_tmpfs("/dev/shm", PROFILE["shm_mb"])


def open_files() -> None:
    n = PROFILE["nofile"]
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


def address_space() -> None:
    """The job's `ulimit -v`: what the process maps now, and a little headroom."""
    with open("/proc/self/status") as f:
        vm_kb = next(int(line.split()[1]) for line in f if line.startswith("VmSize:"))
    cap = (vm_kb + PROFILE["as_headroom_mb"] * 1024) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
