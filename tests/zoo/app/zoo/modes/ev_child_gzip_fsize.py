"""The export step caps file sizes (RLIMIT_FSIZE) to keep a runaway log from filling the disk, then compresses the
checkpoint with gzip in a child: gzip inherits the limit and, with SIGXFSZ at its default again in the child
(subprocess restores it), is killed when its output passes the limit."""

import os
import resource
import subprocess
import tempfile

import torch

LIMIT = 256 * 1024


def export_bundle(ckpt: str) -> str:
    subprocess.run(["gzip", "-k", "-f", ckpt], check=True)
    return ckpt + ".gz"


def main() -> None:
    out = tempfile.mkdtemp(prefix="ev_bundle_")
    ckpt = os.path.join(out, "model.pt")
    torch.save({"w": torch.randn(128, 1024)}, ckpt)
    print(f"checkpoint {os.path.getsize(ckpt)} bytes; capping new files at {LIMIT} bytes")
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))
    print("bundle", export_bundle(ckpt))
