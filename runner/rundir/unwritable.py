"""A run directory that stops taking writes mid-run: a full disk, a quota, a read-only or vanished mount.

The run stops with one line that names the directory and `--resume` (exit 2, as bad input), and
keeps every row already written. A cell that ended while the disk was full is not recorded: its
own logs may have been cut short (its prints failed), so its outcome says nothing about its
configuration; `--resume` runs it again.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator

from crashmatrix.errors import BadInput

# Below this much free space a cell's logs may already have been cut: a log line, a traceback or a
# result.json is a few KiB, and a filesystem refuses a write that does not fit in whole blocks.
FULL_BELOW_BYTES = 64 * 1024


class RunDirUnwritable(BadInput):
    """The run directory refused a write; the command line prints the message and exits 2."""

    def __init__(self, path: str, error: OSError, next_step: str | None = None):
        """next_step: what to run once the directory takes writes again (default: run's --resume)."""
        self.path = path
        self.error = error
        reason = error.strerror or os.strerror(error.errno or errno.EIO)
        rel = os.path.relpath(path)
        fix = "free some space" if error.errno in (errno.ENOSPC, errno.EDQUOT) else "make it writable again"
        super().__init__(
            f"{rel}: the run directory cannot be written ({reason.lower()}); the rows written so far are kept. "
            f"{fix.capitalize()}, then: {next_step or f'crashmatrix run --resume {rel}'}"
        )


@contextlib.contextmanager
def writing(run_dir: str) -> Iterator[None]:
    """Any OSError of the writes inside becomes RunDirUnwritable for `run_dir`."""
    try:
        yield
    except RunDirUnwritable:
        raise
    except OSError as e:
        raise RunDirUnwritable(run_dir, e) from None


def free_bytes(path: str) -> int | None:
    """Space a write in `path` may still use (root may use the blocks reserved for it); None if unknown."""
    try:
        st = os.statvfs(path)
    except OSError:
        return None
    blocks = st.f_bfree if os.geteuid() == 0 else st.f_bavail
    return blocks * st.f_frsize


def check_not_full(run_dir: str) -> None:
    """Raise RunDirUnwritable (no space) when the run directory's filesystem is as good as full.

    Called before a finished cell is recorded: a filesystem that reports no size at all (f_blocks 0,
    some network and pseudo filesystems) is never taken for full.
    """
    try:
        if os.statvfs(run_dir).f_blocks == 0:
            return
    except OSError as e:
        raise RunDirUnwritable(run_dir, e) from None
    free = free_bytes(run_dir)
    if free is not None and free < FULL_BELOW_BYTES:
        raise RunDirUnwritable(run_dir, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
