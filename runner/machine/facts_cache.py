"""An interpreter's answer (pyfacts) kept on disk, keyed by everything that would change it.

The key is the question asked (the child's code), the interpreter's path and its file's
mtime, every sys.path folder of that interpreter with its mtime (installing, removing or
upgrading a package adds or renames entries in site-packages, which changes the folder's
mtime), the host, the kernel, the NVIDIA driver and device nodes, and the environment
variables torch reads. A probe child
that prints the sys.path part starts in about 20 ms, where the full answer imports torch
for seconds, so a run whose interpreters are known ends with its cells.

Answers that say something went wrong (a timeout, an interrupted ask, a broken torch) are
never kept: the next run asks again. The folder is $XDG_CACHE_HOME/crashmatrix/pyfacts
(~/.cache/... by default); deleting it is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket

from crashmatrix.incell.atomic import write_json_atomic
from crashmatrix.redaction import is_secret

# Plain Python 3.8 syntax, like pyfacts' child: it runs under whatever interpreter a cell uses.
PROBE = r"""
import json, os, sys
sys.path = [p for p in sys.path if p not in ("", ".")]
def stamp(p):
    try:
        return os.stat(p).st_mtime_ns
    except OSError:
        return None
print(json.dumps({"executable": os.path.realpath(sys.executable), "path": [[p, stamp(p)] for p in sys.path]}))
"""

# Variables that change what torch reports (devices, threads, libraries) or what Python finds.
_ENV_PREFIXES = ("CUDA_", "NVIDIA_", "PYTORCH_", "TORCH_", "OMP_", "MKL_", "LD_", "PYTHON", "VIRTUAL_ENV")
_KEEP = 64  # answers kept: one per interpreter and state; the oldest go first


def folder() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "crashmatrix", "pyfacts")


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def _mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def key(python: str, probe: str, question: str) -> str:
    """The cache key of `python` whose PROBE printed `probe`, asked `question` (the child's code:
    a crashmatrix that asks for more never reads an older answer)."""
    try:
        nvidia = sorted(n for n in os.listdir("/dev") if n.startswith("nvidia"))
    except OSError:
        nvidia = []
    parts = {
        "python": python,
        "python_mtime": _mtime(python),
        "probe": probe.strip(),
        "question": hashlib.sha256(question.encode()).hexdigest(),
        "host": socket.gethostname(),
        "kernel": os.uname().release,
        "driver": _read("/proc/driver/nvidia/version"),
        "devices": nvidia,
        "env": {k: v for k, v in sorted(os.environ.items()) if k.startswith(_ENV_PREFIXES) and not is_secret(k)},
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def load(cache_key: str) -> dict | None:
    """The answer kept under cache_key, or None (never kept, or unreadable)."""
    try:
        with open(os.path.join(folder(), f"{cache_key}.json"), encoding="utf-8") as f:
            found = json.load(f)
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def keepable(answer: dict) -> bool:
    return "fingerprint_error" not in answer and "torch_error" not in answer


def store(cache_key: str, answer: dict) -> None:
    """Keep answer under cache_key; a cache that cannot be written only costs the next run its wait."""
    where = folder()
    try:
        os.makedirs(where, exist_ok=True)
        write_json_atomic(os.path.join(where, f"{cache_key}.json"), answer, durable=False)
        kept = sorted((e for e in os.scandir(where) if e.name.endswith(".json")), key=lambda e: e.stat().st_mtime)
        for old in kept[:-_KEEP]:
            os.remove(old.path)
    except OSError:
        pass
