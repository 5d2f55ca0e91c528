"""Whose bug a failure's stack points to: the installed library the faulting thread was in, and its version.

For a death by signal, the innermost native frame of the faulting thread (torch's fatal-signal backtrace)
that lies in an installed package, else `where`'s library (an extension module by its path below
site-packages: `lmdb/cpython...so`); for an error, the frame that raised it (the innermost of the last
traceback: of a distributed job, the failing rank's own, crashmatrix.resolve.issue.own_output) where that
lies in an installed package. Its distribution and version come from the package folder's own metadata
(importlib.metadata over that site-packages folder: what the cell's interpreter would say), else from
the failing interpreter's package list in env.json. torch is the address only when torch is that
library; the standard C library or the program's own code is no upstream library's bug.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from crashmatrix.verdict import forensics

_PACKAGES_DIR = re.compile(r"^(?P<site>.*/(?:site|dist)-packages)/(?P<rel>.+)$")
_TRACEBACK_FILE = re.compile(r'^\s+File "([^"]+)", line \d+')
# A native library as `where` names it (`lmdb/cpython-311-x86_64-linux-gnu.so`, `libc.so.6 (+0x8aeec)`); a
# Python file there (`app/data/reader.py:7 in parse_label`) is the program's own place, not a library.
_SHARED_OBJECT = re.compile(r"\.(?:so(?:\.\d+)*|pyd|dylib)$")


@dataclass(frozen=True)
class Culprit:
    package: str  # the import package's folder below site-packages: `lmdb`, `torch`
    distribution: str  # as pip names it: `lmdb`, `opencv-python`; the package's name where unknown
    version: str  # "" where unknown
    evidence: str  # what on the stack names it: `lmdb/cpython.cpython-311-x86_64-linux-gnu.so`, `yaml/parser.py`
    raised: bool = False  # an exception raised in its Python code, not a thread that died in it

    @property
    def is_torch(self) -> bool:
        return self.package == "torch"

    def named(self) -> str:
        return f"{self.distribution} {self.version}".strip()


def culprit(stderr: str, where: str, packages: dict) -> Culprit | None:
    """The library the failure's stack points to; None where it points to none (libc, the program itself).
    packages: the failing interpreter's {distribution: version} (env.json)."""
    native = [path for _line, path in forensics.faulting_native_frames(stderr) if path]
    installed = [p for p in native if _PACKAGES_DIR.match(p.replace("\\", "/"))]
    if installed:
        return _of_path(installed[0], packages)
    place = where.split(";")[0].strip().split(" (")[0]
    if "/" in place and _SHARED_OBJECT.search(place):  # an extension module by its path below site-packages
        return _of_relative(place, "", packages)
    if forensics.died_thread_frames(stderr) or native:
        return None  # a death by signal whose stack shows no installed library's native code
    # The frame that raised: the innermost of the last traceback. Only there is it the library's raise; a
    # library frame further out (torch's mp.spawn wrapper, a Lightning loop) only called the program's code.
    files = [m.group(1) for m in map(_TRACEBACK_FILE.match, _last_traceback(stderr).splitlines()) if m]
    raised_in = files[-1].replace("\\", "/") if files else ""
    return _of_path(raised_in, packages, raised=True) if _PACKAGES_DIR.match(raised_in) else None


def _last_traceback(stderr: str) -> str:
    """The last `Traceback (most recent call last):` of stderr to its end."""
    at = stderr.rfind("Traceback (most recent call last)")
    return stderr[at:] if at != -1 else stderr


def _of_path(path: str, packages: dict, raised: bool = False) -> Culprit:
    m = _PACKAGES_DIR.match(path.replace("\\", "/"))
    assert m is not None
    return _of_relative(m.group("rel"), m.group("site"), packages, raised)


def _of_relative(rel: str, site: str, packages: dict, raised: bool = False) -> Culprit:
    top = rel.split("/")[0]
    if top.endswith(".libs"):  # auditwheel's folder of a wheel's vendored libraries: numpy.libs
        top = top[: -len(".libs")]
    found = _metadata(site, rel, top) if site else None
    if found is None:
        version = packages.get(_normal(top), "")
        found = (_normal(top), version)
    # A Python file by its path below site-packages: `parser.py` alone could be anyone's
    evidence = forensics.library_name(os.path.join(site, rel)) if site and not raised else rel
    return Culprit(top, found[0], found[1], evidence, raised)


def _metadata(site: str, rel: str, top: str) -> tuple[str, str] | None:
    """(distribution, version) of the distribution in `site` that installed `rel` (or package `top`)."""
    from importlib import metadata

    try:
        dists = list(metadata.distributions(path=[site]))
    except OSError:
        return None
    for dist in dists:
        files = {str(f).replace("\\", "/") for f in dist.files or ()}
        if rel in files or any(f.startswith(top + "/") for f in files):
            return dist.metadata["Name"], dist.version
    return None


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
