"""Whose bug a failure's stack points to: the installed library the faulting thread was in, and its version.

For a death by signal, the innermost native frame of the faulting thread (torch's fatal-signal backtrace)
that lies in an installed package, else `where`'s library (an extension module by its path below
site-packages: `lmdb/cpython...so`); for an error, the package of the frame that raised it (the failing
exception's traceback, a worker's or a failing rank's own: verdict/exception_place.py). Its distribution
and version come from the package folder's own metadata
(importlib.metadata over that site-packages folder: what the cell's interpreter would say), else from
the failing interpreter's package list in env.json. torch is the address only when torch is that
library; the standard C library or the program's own code is no upstream library's bug.

Whose bug it is, judged as the raising library's maintainers judge it (`Culprit.admitted`, `Culprit.undecided`):
an exception raised in a library's code is the library refusing what the program gave it, the program's to
fix, unless the library says the bug is its own (ADMISSIONS) or the kind of exception is one no argument
check raises (UNDECIDED_TYPES: then the evidence does not decide, and the report says so). A death by signal
in a library's native code is the library's. An abort after C++'s `terminate called after throwing` is an
uncaught exception (gloo's enforce on a collective of another size), judged as one.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crashmatrix.verdict import forensics
from crashmatrix.verdict.exception_place import failing_output, last_traceback
from crashmatrix.verdict.stacks import below_packages

if TYPE_CHECKING:
    from importlib.metadata import Distribution

_PACKAGES_DIR = re.compile(r"^(?P<site>.*/(?:site|dist)-packages)/(?P<rel>.+)$")
# `lmdb/cpython.cpython-311-x86_64-linux-gnu.so`; not an exception's Python frame (`json/decoder.py:353 in
# raw_decode`, `app/reader.py:7 in parse_label`), which the traceback itself tells below.
_EXTENSION_PLACE = re.compile(r"/[^/\s]+\.so(?:\.\d+)*$")
# torch's own native libraries (torch/lib/), as the kernel's `segfault at ... in libtorch_cpu.so[...]` names them: by
# file name alone (the sixty-third held-out set's pf_profiler_never_stopped, a death at exit in torch's profiler)
_TORCH_LIBRARY = re.compile(r"^lib(?:torch|c10|shm|caffe2)(?:_\w+)?\.so(?:\.\d+)*$")
# A Cython module's frame: its source by its path below its package (`pandas/_libs/parsers.pyx`)
_CYTHON_SOURCE = re.compile(r"^[A-Za-z_]\w*/[^\s]*\.(?:pyx|pxd|pxi)$")
# Triton's launcher reporting a CUDA error of the kernel it launched: the kernel is its caller's (a program's own
# @triton.jit function, or a library's, torch's inductor), not Triton's.
_TRITON_LAUNCH_ERROR = re.compile(r"Triton Error \[CUDA\]")

# A library's own word that a failure is its bug, not the program's: what its maintainers ask to be reported.
# (pattern, the distribution that says it, or "" for whichever library raised.)
ADMISSIONS: tuple[tuple[str, str], ...] = (
    (r"INTERNAL ASSERT FAILED", "torch"),  # TORCH_INTERNAL_ASSERT: "..., please report a bug to PyTorch."
    (r"[Pp]lease report a bug to PyTorch", "torch"),
    # another library's own words; one that names a library ("to PyTorch") is that library's
    (r"(?i)\bthis is (?:probably |likely )?a bug in\b", ""),
    (r"(?i)\bplease (?:report|file) (?:this |it )?(?:as )?(?:a bug|an issue|a bug report)\b(?! to )", ""),
)
_ADMITTED = tuple((re.compile(pattern), by) for pattern, by in ADMISSIONS)
# A library's bug its maintainers acknowledged in their tracker, told by the exception and the library's own frames
# that make it: (pattern, the frames below site-packages the traceback must pass through, the distribution,
# its tracker's issue). Where the program asks for what the library documents and the library contradicts
# itself, the refusal is the library's, not a check on the program's input.
ACKNOWLEDGED: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    # torch.set_default_device("cuda") with DataLoader(shuffle=True): RandomSampler makes its generator on the
    # CPU for a randperm the default device sends to the accelerator
    (
        r"Expected a '\w+' device type for generator but found 'cpu'",
        ("torch/utils/_device.py", "torch/utils/data/sampler.py"),
        "torch",
        "pytorch/pytorch#110820",
    ),
)
# A library's native code its maintainers document as trusting what the program hands it, unchecked: a crash there on
# the program's malformed input is the program's to look at first, as they answer such reports. (pattern of the
# library file below site-packages, what it trusts, how the program checks it first, its tracker's answer.)
UNCHECKED: tuple[tuple[str, str, str, str], ...] = (
    (
        r"^scipy/sparse/_sparsetools\.",
        "scipy.sparse's compressed-matrix constructors trust the (data, indices, indptr) they are given",
        "`matrix.check_format(full_check=True)` refuses a malformed one with a ValueError",
        "scipy/scipy#21170",
    ),
)
_UNCHECKED = tuple((re.compile(pattern), trusts, check, ref) for pattern, trusts, check, ref in UNCHECKED)
# Exceptions no check of a caller's input raises: a library's own code that names what it never defined.
# Raised in a library's frame they point at that library, but a program can cause them too (a monkeypatch, an
# incompatible version pair): the report says the evidence does not decide.
UNDECIDED_TYPES = frozenset({"NameError", "UnboundLocalError", "SystemError"})
# C++'s last words on an uncaught exception before abort(): an exception, judged as one (classify.py's
# cpp_terminate).
_UNCAUGHT_CPP = re.compile(r"^(?:terminate called after throwing|what\(\):)", re.M)


@dataclass(frozen=True)
class Culprit:
    package: str  # the import package's folder below site-packages: `lmdb`, `torch`
    distribution: str  # as pip names it: `lmdb`, `opencv-python`; the package's name where unknown
    version: str  # "" where unknown
    evidence: str  # what on the stack names it: `lmdb/cpython.cpython-311-x86_64-linux-gnu.so`, `yaml/parser.py`
    raised: bool = False  # an exception raised in its Python code, not a thread that died in it
    admitted: str = ""  # the library's own words that the bug is its own (ADMISSIONS), where it said so
    acknowledged: str = ""  # its tracker's issue for this very failure (ACKNOWLEDGED), where its maintainers took it
    # raised in its code by a kind of exception no check of input raises; or died below its Python frame, no native
    # frame known
    undecided: bool = False
    handed: str = ""  # it died reading memory the program pointed it to from a bare address, made at this line
    mapped: str = ""  # it died by SIGBUS reading a file the program memory-mapped at this line
    unmapped: str = ""  # it died by SIGSEGV reading memory the program mapped at this line (a view outliving it)
    viewed: str = ""  # it died copying a view the program made by its own strides (numpy's as_strided) at this line
    trapped: str = ""  # it died by SIGFPE after the program unmasked floating-point exceptions at this line
    recursed: int = 0  # it ran out of stack in a recursion: the times one native frame repeats
    bus: bool = False  # it died by SIGBUS, the memory behind a mapping gone, no mapping of the program's known
    unchecked: str = ""  # it died in native code its maintainers document as unchecked (UNCHECKED): what to say
    # it died in a third-party library the project keeps in its own tree (third_party/NAME/): that folder; upstream's
    # code, built and shipped by the project
    vendored: str = ""

    @property
    def owns_the_bug(self) -> bool:
        """Whether the report goes to this library's tracker: it died in its native code, or said it is its bug;
        not where the memory it died in was the program's raw pointer."""
        return (
            (not self.raised or bool(self.admitted or self.acknowledged))
            and not (
                self.handed
                or self.mapped
                or self.unmapped
                or self.viewed
                or self.trapped
                or self.recursed
                or self.bus
                or self.unchecked
                or self.vendored
            )
            and not (self.undecided and not self.raised)
        )

    @property
    def is_torch(self) -> bool:
        return self.package == "torch"

    def named(self) -> str:
        return f"{self.distribution} {self.version}".strip()


def culprit(stderr: str, where: str, packages: dict, error: str = "", by_signal: bool = False) -> Culprit | None:
    """The library the failure's stack points to; None where it points to none (libc, the program itself).
    packages: the failing interpreter's {distribution: version} (env.json). error: the row's telling line,
    whose traceback it is. by_signal: a death by signal, told by native frames alone: the traceback of a
    process that heard of it (torch's loader re-raising a worker's death) is a consequence, no culprit."""
    native = [path for _line, path in forensics.faulting_native_frames(stderr) if path]
    own = _first_not_systems(native)
    if own and not _PACKAGES_DIR.match(own):
        vendored = _VENDORED.search(own)
        if vendored:  # a third-party library the project builds from its own tree: upstream's code, not installed
            name = vendored.group("name")
            return _handed(Culprit(name, name, "", own.rsplit("/", 1)[-1], vendored=vendored.group("dir")), stderr)
        return None  # it died in the program's own compiled code (a C++ extension it built), whatever called it
    installed = [p for p in native if _PACKAGES_DIR.match(p.replace("\\", "/"))]
    if installed:
        found = _of_path(installed[0], packages)
        if _UNCAUGHT_CPP.match(error):  # an uncaught C++ exception: raised, not died of
            return _judged(dataclasses.replace(found, raised=True), error)
        return _handed(found, stderr)
    place = where.split(";")[0].strip().split(" (")[0]
    if _EXTENSION_PLACE.search(place):  # an extension module by its path below site-packages
        return _handed(_of_relative(place, "", packages), stderr)
    if _TORCH_LIBRARY.match(place):  # the kernel's line names a library by its file alone: torch's own
        return _handed(_of_relative(f"torch/lib/{place}", "", packages), stderr)
    dying = forensics.died_thread_frames(stderr)
    running = dying[0].file.replace("\\", "/") if dying and not native else ""
    # a fault's signal only: an abort is told by its own words (C++'s terminate, glibc's checks, an assert)
    if _PACKAGES_DIR.match(running) and forensics.faulting_signal(stderr) in _FAULTS:
        # no native backtrace (torch's handler was not on): the dying thread's innermost Python frame is an installed
        # library's, so native code under that frame was running, whose is not told: the library's own (the
        # ninety-fifth set's PyYAML C loader, out of stack on a valid, deeply nested document) or the program's (a
        # review's: numpy summing a view made with a wrong stride, scipy's quad calling the program's own C callback)
        found = _handed(_of_path(running, packages), stderr)
        return found if not found.owns_the_bug else dataclasses.replace(found, undecided=True)
    if dying or native or by_signal:
        return None  # a death by signal whose stack shows no installed library's native code
    # the frame that raised the failing exception (a worker's, a failing rank's own): the library it is in
    frames, exception = last_traceback(failing_output(stderr), error)
    if _TRITON_LAUNCH_ERROR.search(exception):
        frames = [(f, code) for f, code in frames if not below_packages(f.file).startswith("triton/")]
    raised = frames[0][0].file.replace("\\", "/") if frames else ""
    if _PACKAGES_DIR.match(raised):
        found = _of_path(raised, packages, raised=True)
    else:
        cython = _of_cython(raised, [f.file for f, _code in frames], packages)
        if cython is None:
            return None
        found = cython
    found = _judged(found, f"{exception}\n{error}")
    return dataclasses.replace(found, acknowledged=_acknowledged(found, exception, frames))


_FAULTS = frozenset({"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE"})
# Native code that is neither a package's nor the program's: the system's libraries and the interpreter's own
_SYSTEM_DIRS = ("/lib/", "/lib64/", "/usr/", "/System/")
_INTERPRETER = re.compile(r"/lib/python\d+\.\d+/|/(?:lib)?python\d*(?:\.\d+)?(?:\.so[.\d]*)?$")


# A library a project keeps in its own tree, as C and C++ projects lay one out: `third_party/fastcsv/`, `vendor/`,
# `extern/` (the folder and the library's name below it). Not `external/`: a disk's mount point is often so named.
_VENDORED = re.compile(r"/(?P<dir>(?:third[_-]?party|3rd[_-]?party|_?vendor(?:ed)?|extern)/(?P<name>[^/]+))/", re.I)


def _first_not_systems(native: list[str]) -> str:
    """The innermost native frame's library of the faulting thread that is no system library's nor the interpreter's:
    an installed package's, or the program's own (a shared library it built: torch.utils.cpp_extension's
    `build_directory` in its project, its own gcc output; the ninety-second set's kernel that wrote past a tensor,
    called through torch.ops: torch's dispatcher below it was taken for the culprit); "" where none."""
    for path in native:
        path = path.replace("\\", "/")
        if _PACKAGES_DIR.match(path) or not (path.startswith(_SYSTEM_DIRS) or _INTERPRETER.search(path)):
            return path
    return ""


def _of_cython(raised: str, files: list[str], packages: dict) -> Culprit | None:
    """The library of a Cython module's frame, which names its source below the package
    (`pandas/_libs/parsers.pyx`), not a path below site-packages: the package whose Python frames further out
    lie below site-packages, else one the failing interpreter has installed (env.json); None for another file."""
    if not _CYTHON_SOURCE.match(raised):
        return None
    top = raised.split("/")[0]
    for file in files:
        m = _PACKAGES_DIR.match(file.replace("\\", "/"))
        if m and m.group("rel").split("/")[0] == top:
            return _of_relative(raised, m.group("site"), packages, raised=True)
    installed = {_normal(name) for name in packages}
    return _of_relative(raised, "", packages, raised=True) if _normal(top) in installed else None


def _acknowledged(found: Culprit, exception: str, frames: list) -> str:
    """The tracker issue under which the raising library's maintainers took this failure as their bug
    (ACKNOWLEDGED), where its exception and the library's frames that make it match one; else ""."""
    passed = {below_packages(f.file) for f, _code in frames}
    for pattern, through, by, issue in ACKNOWLEDGED:
        if by == found.package and re.search(pattern, exception) and all(p in passed for p in through):
            return issue
    return ""


def _handed(found: Culprit, stderr: str) -> Culprit:
    """A library dead in its native code, with the program's line that made the pointer it read from a bare
    address (ctypes), made the view it copied by its own strides, or mapped the file it read when it died by
    SIGBUS: as its maintainers judge it, the program's memory."""
    line = forensics.raw_pointer_line(stderr)
    if line:
        return dataclasses.replace(found, handed=line)
    depth = forensics.recursion_depth(stderr)
    if depth:  # as CPython's maintainers judge a C recursion past the stack: the data's depth, or a raised limit
        return dataclasses.replace(found, recursed=depth)
    view = forensics.strided_view_line(stderr)
    if view:
        return dataclasses.replace(found, viewed=view)
    traps = forensics.fp_traps_line(stderr)
    if traps:
        return dataclasses.replace(found, trapped=traps)
    mapping = forensics.file_mapping_line(stderr)
    if mapping:
        return dataclasses.replace(found, mapped=mapping)
    released = forensics.released_mapping_line(stderr)
    if released:
        return dataclasses.replace(found, unmapped=released)
    # A bus error is memory whose backing is gone (a mapped file cut short, a full /dev/shm), whichever code read it:
    # no library's maintainers take one without more (the eighty-fourth set's rank truncated the file it had mapped, in
    # another function than the one that died)
    if forensics.faulting_signal(stderr) == "SIGBUS":
        return dataclasses.replace(found, bus=True)
    for pattern, trusts, check, ref in _UNCHECKED:
        if pattern.search(below_packages(found.evidence) or found.evidence):
            return dataclasses.replace(found, unchecked=f"{trusts} ({ref}): {check}")
    return found


def _judged(found: Culprit, exception: str) -> Culprit:
    """A library that raised, with its admission that the bug is its own where it made one (in the exception's
    own words: a warning printed earlier, another library's, says nothing of this one), or undecided by the
    kind of exception."""
    for pattern, by in _ADMITTED:
        said = pattern.search(exception)
        if said and by in ("", found.package):
            return dataclasses.replace(found, admitted=said.group(0))
    kind = exception.split(":", 1)[0].strip().rsplit(".", 1)[-1]
    return dataclasses.replace(found, undecided=kind in UNDECIDED_TYPES)


def _of_path(path: str, packages: dict, raised: bool = False) -> Culprit:
    m = _PACKAGES_DIR.match(path.replace("\\", "/"))
    assert m is not None
    return _of_relative(m.group("rel"), m.group("site"), packages, raised)


def _of_relative(rel: str, site: str, packages: dict, raised: bool = False) -> Culprit:
    top = rel.split("/")[0]
    if top == "lib-dynload":  # the standard library's extension modules (`_pickle`, `_ctypes`): CPython's own
        return Culprit(top, "CPython", packages.get("python", ""), rel, raised)
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
    for dist, listed in _installed(site):
        if f"\n{rel}\n" in listed or f"\n{top}/" in listed:
            return dist.metadata["Name"], dist.version
    return None


@functools.lru_cache(maxsize=16)
def _installed(site: str) -> tuple[tuple[Distribution, str], ...]:
    """Every distribution in `site` with the files it installed, one per line between newlines, read once per
    folder. Read as text: `Distribution.files` builds a path object per file (torch's RECORD lists 86,000), and
    that took 2.2 s of a `resolve` whose failure was raised in a library; the text takes milliseconds. Only the
    distribution found has its METADATA parsed."""
    from importlib import metadata

    try:
        dists = list(metadata.distributions(path=[site]))
    except OSError:
        return ()
    return tuple((dist, _files_listed(dist)) for dist in dists)


def _files_listed(dist: Distribution) -> str:
    """A distribution's files as importlib.metadata lists them, a newline before and after each path."""
    record = dist.read_text("RECORD")
    if record is None:  # an egg-info's installed-files.txt or SOURCES.txt: importlib.metadata makes the paths
        paths = [str(f) for f in dist.files or ()]
    else:  # a RECORD is CSV; only a path with a comma or a quote in it is quoted, and none is looked for
        paths = [line.split(",", 1)[0] for line in record.splitlines()]
    return "\n" + "\n".join(p.replace("\\", "/") for p in paths) + "\n"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
