"""Scratch space: the trainer keeps checkpoints and caches on small tmpfs mounts of its own, in a private mount
namespace (as root: `unshare -m`), so a full or read-only scratch never touches the host."""

import os
import subprocess
import sys
import tempfile


def enter_private_mounts() -> None:
    """Re-run this process inside `unshare -m` (same pid: unshare execs python) unless already there."""
    if os.environ.get("IOKIT_PRIVATE_MOUNTS") != "1":
        os.environ["IOKIT_PRIVATE_MOUNTS"] = "1"
        argv = ["unshare", "-m", "--propagation", "private", sys.executable, *sys.argv]
        os.execvp("unshare", argv)


def scratch(size: str, read_only: bool = False) -> str:
    path = tempfile.mkdtemp(prefix="iokit-scratch-")
    opts = f"size={size}" + (",ro" if read_only else "")
    subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", path], check=True)
    return path
