"""A cell's stacks as forensics reads them: faulthandler's and py-spy's dumps parsed into threads and
frames, whose frames are the program's own, and where a main thread waits (controller side; never
imports torch). verdict/forensics.py collects the dumps on a timeout; verdict/straggler.py reads a
distributed cell's by rank."""

from __future__ import annotations

import ast
import functools
import linecache
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from crashmatrix.verdict.app_paths import app_root, from_root

# the package folder (runner/ in a checkout), one above this subpackage
OURS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES_DIR = re.compile(r"/(?:site|dist)-packages/")
_STDLIB_DIR = re.compile(r"/lib/python3\.\d+/")
_PROBES = os.path.join(os.path.dirname(OURS), "probes") + "/"


# --- stacks: parsing -------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    func: str
    file: str
    line: str = ""

    def short(self) -> str:
        return f"{self.func} ({os.path.basename(self.file)}:{self.line})" if self.line else f"{self.func} ({self.file})"


@dataclass
class Thread:
    ident: str
    frames: list = field(default_factory=list)  # innermost first

    def has(self, func: str) -> bool:
        return any(f.func == func for f in self.frames)


_FH_THREAD = re.compile(r"^(?:Current thread|Thread) (0x[0-9a-f]+) \(most recent call first\):", re.M)
_FH_FRAME = re.compile(r'^\s+File "(.*)", line (\d+) in (.+)$')
_SPY_THREAD = re.compile(r"^Thread (\d+|0x[0-9a-fA-F]+)\b.*$")
_SPY_FRAME = re.compile(r"^\s{4}(\S.*?) \((.+?)(?::(\d+))?\)$")


def _parse_threads(text: str, thread_re, frame_of) -> list[Thread]:
    """Threads from a stack dump: thread_re starts a thread (group 1 its ident); frame_of(line)
    is the Frame a line holds, or None."""
    threads: list[Thread] = []
    for line in text.splitlines():
        m = thread_re.match(line)
        if m:
            threads.append(Thread(m.group(1)))
            continue
        frame = frame_of(line)
        if frame is not None and threads:
            threads[-1].frames.append(frame)
    return threads


def faulthandler_frame(line: str) -> Frame | None:
    f = _FH_FRAME.match(line)
    return Frame(f.group(3), f.group(1), f.group(2)) if f else None


def _pyspy_frame(line: str) -> Frame | None:
    f = _SPY_FRAME.match(line)
    # Python frames only: native ones have no line number, or a C file's (`selectmodule.c:655`)
    if not f or not f.group(3) or not (f.group(2).endswith(".py") or f.group(2).startswith("<")):
        return None
    # `DistributedDataParallel.forward`, `prof.<locals>.wrapper`: the function's own name, as faulthandler has it
    return Frame(f.group(1).rsplit(".", 1)[-1], f.group(2), f.group(3))


def parse_faulthandler(text: str) -> list[Thread]:
    return _parse_threads(text, _FH_THREAD, faulthandler_frame)


def parse_pyspy(text: str) -> list[Thread]:
    return _parse_threads(text, _SPY_THREAD, _pyspy_frame)


def main_thread(threads: list[Thread], pid: int) -> Thread | None:
    """The thread that runs the program: py-spy names it by the pid; in faulthandler's dump it is
    the one whose outermost frame is not threading's _bootstrap, else one with no Python frame. None where
    every thread is one threading started: the dump was cut before the main thread (faulthandler's handler
    stalled mid-line while a pool forked its workers), and another thread's place is not the main's."""
    for t in threads:
        if t.ident == str(pid):
            return t
    for t in threads:
        if t.frames and not (t.frames[-1].func.startswith("_bootstrap") and t.frames[-1].file.endswith("threading.py")):
            return t
    return next((t for t in threads if not t.frames), None)


def is_stdlib(frame: Frame) -> bool:
    path = frame.file.replace("\\", "/")
    return path.startswith("<frozen") or (bool(re.search(r"/lib/python3\.\d+/", path)) and "-packages/" not in path)


def below_packages(path: str) -> str:
    """An installed file's path below its site-packages (`triton/runtime/jit.py`); "" for any other file."""
    below = PACKAGES_DIR.split(path.replace("\\", "/"))
    return below[-1] if len(below) > 1 else ""


def is_torch_file(path: str) -> bool:
    """torch's own file: below site-packages the package `torch/`; elsewhere (torch built from a source
    checkout) a `/torch/` folder. An environment that lives in a folder named torch (`/opt/torch/.venv`, on
    a lent H200) makes none of its other packages torch's: transformers' frames there were taken for torch's."""
    below = below_packages(path)
    return below.startswith("torch/") if below else "/torch/" in path.replace("\\", "/")


def is_library(frame: Frame) -> bool:
    """Not the user's code: the standard library, torch, crashmatrix's own files."""
    path = frame.file.replace("\\", "/")
    return (
        is_stdlib(frame)
        or path.startswith(OURS)
        or in_cell_elsewhere(path)
        or is_torch_file(path)
        or "/multiprocessing/" in path
    )


def user_frame(thread: Thread | None) -> Frame | None:
    for f in thread.frames if thread else ():
        if not is_library(f):
            return f
    return None


# --- stacks: what the main thread waits on ---------------------------------------


# The usual places a main thread waits, most telling first: (test of a frame's function and path, label).
_SITES = [
    (lambda func, path: func == "_get_data" and path.endswith("data/dataloader.py"), "DataLoader {func}"),
    (lambda func, path: func == "_try_get_data" and path.endswith("data/dataloader.py"), "DataLoader {func}"),
    (lambda func, path: func in ("barrier", "monitored_barrier") and "distributed" in path, "c10d {func}"),
    # any other call of torch.distributed's: a collective, or init_process_group's rendezvous waiting for the
    # ranks that never came; the backend (gloo, NCCL) is not in a Python stack
    (lambda func, path: path.endswith("distributed/distributed_c10d.py"), "c10d {func}"),
    (lambda func, path: func == "synchronize" and "/torch/cuda/" in path, "CUDA synchronize"),
]


def _main_site(thread: Thread | None) -> tuple[str, Frame | None]:
    """(a usual wait's label, its frame), else ("", the innermost user frame, or the innermost frame)."""
    frames = thread.frames if thread else []
    for test, label in _SITES:
        for f in frames:
            if test(f.func, f.file.replace("\\", "/")):
                return label.format(func=f.func), f
    return "", user_frame(thread) or (frames[0] if frames else None)


def _c10d_caller(label: str, thread: Thread | None) -> Frame | None:
    """The program's frame that called torch.distributed where the main waits in it (which call of the program's
    is the wait: an init_process_group, a collective); None for the other usual waits."""
    return user_frame(thread) if label.startswith("c10d ") else None


def main_wait(thread: Thread | None) -> str:
    """`waits in DataLoader _get_data (dataloader.py:1133)`, `waits in c10d barrier (distributed_c10d.py:4159) from
    step (train.py:40)`, or the innermost user frame."""
    label, f = _main_site(thread)
    if label and f:
        caller = _c10d_caller(label, thread)
        return f"waits in {label} ({os.path.basename(f.file)}:{f.line})" + (f" from {caller.short()}" if caller else "")
    return f"in {f.short()}" if f else ""


def main_place(thread: Thread | None, samples: Sequence[Sequence[Frame]] = ()) -> str:
    """`where`'s words for the main thread: a usual wait as main_wait names it (`DataLoader _get_data
    (dataloader.py:1133)`), one in torch.distributed by the program's call as a rank's is (`in init_process_group
    at app/train.py:20 in main`), else its frame from the app's root (`app/busy.py:3 in loop`)."""
    label, f = _main_site(thread)
    if f is None:
        return ""
    frames = thread.frames if thread else []
    caller = _c10d_caller(label, thread)
    if caller is not None:
        return f"in {f.func} at {place_text(caller, frames)}"
    if not label:
        return busy_place(f, frames, samples)
    # the usual wait, then the program's line that waits there (issue 52: a hang's place is the program's)
    own = user_frame(thread)
    return f"{label} ({os.path.basename(f.file)}:{f.line})" + (f" at {place_text(own, frames)}" if own else "")


def helper_frame(thread: Thread | None) -> Frame | None:
    """A helper process's innermost user frame above the loop multiprocessing runs it in: a forked child's
    stack goes on down into its parent's (`p.start()`, the loop over a DataLoader), which is not where the
    child is; an idle DataLoader worker has none."""
    return user_frame(Thread(thread.ident, _above_its_loop(thread.frames))) if thread else None


def _above_its_loop(frames: Sequence[Frame]) -> list[Frame]:
    loop = next((i for i, f in enumerate(frames) if f.func in ("_worker_loop", "_bootstrap")), len(frames))
    return list(frames[:loop])


# Where a thread waits for another thread's work: its end (Thread.join; the interpreter's exit waiting in
# threading._shutdown for every non-daemon thread), a result it computes (a concurrent.futures Future), or what
# it puts on a queue.Queue (the forty-fourth set's views made by two threads, one stuck at a barrier)
_WAITS_FOR_A_THREAD = (
    ("threading.py", ("join", "_shutdown")),
    ("concurrent/futures/_base.py", ("result", "exception", "wait", "as_completed")),
    ("queue.py", ("get",)),
)


def _waits_for_a_thread(thread: Thread | None) -> bool:
    """Whether the thread waits for another's end or result, the innermost frames the standard library's."""
    for f in thread.frames if thread else ():
        if not is_stdlib(f):
            return False
        path, func = f.file.replace("\\", "/"), f.func.rsplit(".", 1)[-1]
        if any(path.endswith("/" + name) and func in funcs for name, funcs in _WAITS_FOR_A_THREAD):
            return True
    return False


# A line of the program that takes a lock (`with model_lock:`, `lock.acquire()`): read from the source, since
# faulthandler names only the Python line a thread waits on, not the C call it waits in.
_TAKES_A_LOCK = re.compile(r"^\s*with\s+[\w.]*(?:lock|mutex)\w*\b[^:]*:|\.acquire\(", re.I)


def _takes_a_lock(thread: Thread | None) -> Frame | None:
    """The thread's innermost frame where it is the program's own line taking a lock, else None."""
    frame = thread.frames[0] if thread and thread.frames else None
    if frame is None or is_library(frame) or not frame.line.isdigit():
        return None
    return frame if _TAKES_A_LOCK.search(linecache.getline(frame.file, int(frame.line))) else None


def _threads_waited_on(root: ProcessStacks, main: Thread | None, pin: Thread | None) -> list[tuple[Thread, Frame]]:
    """The threads a hung main waits on: the first thread in the program's code where the main waits for threads
    (Thread.join, the interpreter's exit waiting for non-daemon threads, a Future's result, a queue.Queue's get);
    every thread taking a lock in the
    program's code where the main takes one there too (two locks taken in opposite orders)."""
    others = [t for t in root.threads if t is not main and t is not pin]
    if _waits_for_a_thread(main):  # not a library's or crashmatrix's thread: the first in the program's code
        return next(([(t, f)] for t in others if (f := user_frame(t))), [])
    if _takes_a_lock(main):
        return [(t, f) for t in others if (f := _takes_a_lock(t))]
    return []


@dataclass
class ProcessStacks:
    pid: int
    cmdline: str
    faulthandler: str = ""
    pyspy: str = ""
    threads: list = field(default_factory=list)
    aborted: bool = False  # its faulthandler dump is the one SIGABRT made as it ended it (forensics.abort_dumps)
    busy: bool = False  # its main thread ran as it was caught (forensics.running): a loop, not a wait
    samples: list = field(default_factory=list)  # its main thread's frames in more dumps, where it was busy

    @property
    def role(self) -> str:
        if any(t.has("_worker_loop") for t in self.threads):
            return "DataLoader worker"
        if "forkserver" in self.cmdline:
            return "forkserver"
        if "resource_tracker" in self.cmdline:
            return "resource tracker"
        return "child"

    def pin_thread(self) -> Thread | None:
        return next((t for t in self.threads if t.has("_pin_memory_loop")), None)


def summarize(root: ProcessStacks | None, others: list[ProcessStacks]) -> tuple[str, str]:
    """(for `error`, for `where`): the main thread's wait and each stuck helper's user frame; `where` names
    the program's frames by their path from the app's root (`main app/busy.py:3 in loop`)."""
    long, short = [], []
    if root is not None:
        thread = main_thread(root.threads, root.pid)
        wait = main_wait(thread)
        if wait:
            long.append(f"main {wait}")
            short.append(f"main {main_place(thread, root.samples)}")
        pin = root.pin_thread()
        for other, own in _threads_waited_on(root, thread, pin):
            long.append(f"its thread in {own.short()}")
            short.append(f"thread {place_text(own, other.frames)}")
        pin_frame = next((f for f in pin.frames if not is_stdlib(f)), None) if pin else None
        # Idle, it waits on its queue in do_one_step: worth naming only when stuck elsewhere (pinning).
        if pin and pin_frame and pin_frame.func not in ("do_one_step", "_pin_memory_loop"):
            long.append(f"pin-memory thread in {pin_frame.short()}")
            short.append(f"pin-memory thread {place_text(pin_frame, pin.frames)}")
    # multiprocessing's helpers start from `-c` code (`<string>`), which is not the user's
    framed = [
        (p, thread, helper_frame(thread))
        for p in others
        if p.role not in ("resource tracker", "forkserver")
        for thread in [main_thread(p.threads, p.pid)]
    ]
    stuck = [(p, t, f) for p, t, f in framed if t is not None and f is not None]
    for p, t, f in stuck[:2]:
        word = "worker" if p.role == "DataLoader worker" else p.role
        long.append(f"{word} {p.pid} in {f.short()}")
        short.append(f"{word} {busy_place(f, _above_its_loop(t.frames), [_above_its_loop(s) for s in p.samples])}")
    if len(stuck) > 2:
        long.append(f"{len(stuck) - 2} more stuck alike (stacks.txt)")
    return "; ".join(long), "; ".join(short)


def install_folder(path: str) -> str:
    """The folder above path that pip installed packages into, where it is no site-packages: one holding a
    `*.dist-info` whose RECORD lists the path's first part below it (`pip install --target /shared/libs`, a
    PYTHONPATH folder of libraries on a cluster); its files are installed libraries', not the program's (the
    twentieth held-out set's jsonargparse in /tmp/g_deps). "" where none: a project's own `*.egg-info` of an
    editable install is no such mark, nor a program that lies beside what pip installed there."""
    folder = os.path.dirname(path)
    for _ in range(6):
        if not folder.startswith("/") or folder == "/":
            return ""
        top = path[len(folder) + 1 :].split("/", 1)[0]
        if top in _installed_names(folder):
            return folder
        folder = os.path.dirname(folder)
    return ""


@functools.lru_cache(maxsize=1024)
def _installed_names(folder: str) -> frozenset:
    """What pip installed into folder, by the first part of each path its `*.dist-info/RECORD` files list
    (`jsonargparse`, `six.py`): a program beside them (`pip install -t .` in a project) stays the program's."""
    names: set = set()
    try:
        with os.scandir(folder) as entries:
            records = [os.path.join(e.path, "RECORD") for e in entries if e.name.endswith(".dist-info") and e.is_dir()]
    except OSError:
        return frozenset()
    for record in records:
        try:
            with open(record, encoding="utf-8", errors="replace") as f:
                names.update(line.split("/", 1)[0].split(",", 1)[0] for line in f if not line.startswith(".."))
        except OSError:
            continue
    return frozenset(n for n in names if n and not n.endswith(".dist-info"))


# An installed package's console script: `<env>/bin/torchrun` (`Scripts\\torchrun` on Windows), no .py.
_CONSOLE_SCRIPT = re.compile(r"/(?:bin|Scripts)/[^/.]+$")


@functools.lru_cache(maxsize=256)
def _is_console_script(path: str) -> bool:
    """A file with no extension beside an environment's interpreter (a venv's, conda's, the system's): an
    installed package's entry point. A user's `~/bin/train` has no interpreter beside it."""
    if not _CONSOLE_SCRIPT.search(path):
        return False
    folder = os.path.dirname(path)
    env = os.path.dirname(folder)
    return (
        any(os.path.exists(os.path.join(folder, name)) for name in ("python", "python3", "python.exe"))
        or os.path.exists(os.path.join(env, "pyvenv.cfg"))
        or os.path.isdir(os.path.join(env, "conda-meta"))
    )


# crashmatrix's in-cell code run from another checkout (a log or stacks.txt recorded by another editable install):
# its import hook stands in a child's traceback between Python's import and the program's module, its exit
# recorder's poll in a hung main's stack
_IN_CELL = re.compile(r"/runner/(incell(?:/inject)?)/(\w+\.py)$")


def in_cell_elsewhere(path: str) -> bool:
    """A frame of crashmatrix's in-cell code in another checkout: a file named as one of ours, under a `runner/`
    that is crashmatrix's (its verdict code beside it), or that is not on this machine (a log of a checkout
    since removed). A program's own `runner/incell/rank.py` in its project is the program's."""
    found = _IN_CELL.search(path)
    if found is None or not os.path.isfile(os.path.join(OURS, found.group(1), found.group(2))):
        return False
    return not os.path.exists(path) or os.path.isfile(os.path.join(path[: found.start()], _OUR_MARK))


_OUR_MARK = os.path.join("runner", "verdict", "classify.py")  # a checkout of crashmatrix, not a program's runner/


def is_own(frame: Frame) -> bool:
    """The program's own code: not the standard library, an installed package (its console script too, and a
    package installed into a folder of its own: install_folder) or crashmatrix."""
    path = frame.file.replace("\\", "/")
    return not (
        is_stdlib(frame)
        or PACKAGES_DIR.search(path)
        or _is_console_script(path)
        or install_folder(path)
        or path.startswith((OURS, "<"))
        or in_cell_elsewhere(path)
        or _is_cython(path)
    )


def _is_cython(path: str) -> bool:
    """A compiled extension's frame, named by the Cython source it was built from, relative to its package
    (`numpy/random/mtrand.pyx`): an installed library's, wherever the extension lives."""
    return path.endswith((".pyx", ".pxd", ".pxi")) and not path.startswith("/")


# --- a frame as `where` names it ---------------------------------------------------


def is_probe(path: str) -> bool:
    return path.startswith(_PROBES) or "/crashmatrix/probes/" in path


def is_programs(frame: Frame) -> bool:
    """The program's own code; a probe stands for the program. torch is never the program's, installed from
    a source checkout (outside site-packages) too."""
    return is_probe(frame.file.replace("\\", "/")) or (is_own(frame) and not is_torch_file(frame.file))


def program_place(frame: Frame, frames: Sequence[Frame]) -> str:
    """`app/data/reader.py:7 in parse_label`: the program's frame by its path from the app's root (the root
    found from the outermost own frame of `frames`, its stack, as app_paths.app_root finds it); a probe's as
    `probes/fault.py`."""
    path = frame.file.replace("\\", "/")
    if is_probe(path):
        root = os.path.dirname(os.path.dirname(path))
    else:
        outermost = next((f for f in reversed(frames) if is_programs(f) and not is_probe(f.file)), frame)
        root = app_root(outermost.file)
    return f"{from_root(path, root)}:{frame.line} in {frame.func}"


def library_text(frame: Frame) -> str:
    """`json/decoder.py:353 in raw_decode`: a library's frame by its path below site-packages (or the folder it
    was installed into) or below the standard library's folder."""
    path = frame.file.replace("\\", "/")
    installed = "" if below_packages(path) else install_folder(path)
    below = below_packages(path) or (path[len(installed) + 1 :] if installed else _STDLIB_DIR.split(path)[-1])
    return f"{below}:{frame.line} in {frame.func}"


def place_text(frame: Frame, frames: Sequence[Frame]) -> str:
    """A frame of a stack (`frames`, innermost first) as `where` names it: the program's from the app's root,
    a library's below site-packages or the standard library's folder."""
    return program_place(frame, frames) if is_programs(frame) else library_text(frame)


def busy_place(frame: Frame, frames: Sequence[Frame], samples: Sequence[Sequence[Frame]] = ()) -> str:
    """Where a process is that no usual wait holds: its frame as place_text names it, and for a library's the
    program's innermost frame that called it (`numpy/_core/fromnumeric.py:83 in _wrapreduction at
    app/data.py:30 in __getitem__`). A process looping through a library is caught on any of its frames there
    (numpy's `_any` in one repeat, `_wrapreduction` in the next: the thirty-second held-out set's
    vi_hang_fg_crop_retry); the program's call is where it is, and what a hang is signed by (hang_signature
    reads a part's last frame). samples: the main thread's stacks in more dumps of a busy process; where the
    program's line it runs moved between them, it loops, and the program's deepest frame every sample shares
    holds the loop (an NMS's `while` calling box_iou: caught in box_iou in one repeat, on the `while`'s own lines
    in the next, the forty-first set's dt_hang_nms_nan_self), named after the frame caught (`app/nms.py:12 in
    box_iou at app/nms.py:23 in nms`). Where it stayed (a regular expression that backtracks for ever, one long
    computation), that call is the place."""
    if frame not in frames:
        return place_text(frame, frames)
    at = frames.index(frame)
    own = at if is_programs(frame) else next((i for i in range(at + 1, len(frames)) if is_programs(frames[i])), None)
    if own is None:
        return library_text(frame)
    holder = _loop_holder(frames, samples) if looped(frames, samples) else own
    said = [place_text(frames[i], frames) for i in dict.fromkeys((at, own, max(own, holder)))]
    return " at ".join(said)


def _programs_path(frames: Sequence[Frame]) -> list[tuple[str, str]]:
    """(file, function) of the program's frames, outermost first."""
    return [(f.file, f.func.rsplit(".", 1)[-1]) for f in reversed(frames) if is_programs(f)]


def looped(frames: Sequence[Frame], samples: Sequence[Sequence[Frame]]) -> bool:
    """Whether the program's innermost line moved between the samples of a busy main thread (it loops), rather
    than staying on one call that has not returned; False with no samples."""
    lines = {_innermost_line(s) for s in (frames, *samples)}
    return len(samples) > 0 and len(lines) > 1


def _innermost_line(frames: Sequence[Frame]) -> tuple[str, str, str]:
    own = next((f for f in frames if is_programs(f)), None)
    return (own.file, own.func, own.line) if own else ("", "", "")


def _loop_holder(frames: Sequence[Frame], samples: Sequence[Sequence[Frame]]) -> int:
    """The index in frames of the frame whose loop the samples were caught in: from the program's deepest frame
    every sample shares (by file and function, the path from the outermost) outward, the first whose line is
    inside a `for` or `while` of its own function (or is a comprehension's); a helper with no loop of its own,
    called again and again, is not it (a busy NMS's box_iou, which most samples catch)."""
    paths = [_programs_path(s) for s in (frames, *samples)]
    shared = 0
    while all(len(p) > shared for p in paths) and len({p[shared] for p in paths}) == 1:
        shared += 1
    own = [i for i, f in enumerate(frames) if is_programs(f)]  # innermost first
    if not own:
        return 0
    deepest = len(own) - shared if 0 < shared <= len(own) else 0
    return next((i for i in own[deepest:] if _in_a_loop(frames[i])), own[deepest])


def _in_a_loop(frame: Frame) -> bool:
    line = int(frame.line) if frame.line.isdigit() else 0
    name = frame.func.rsplit(".", 1)[-1]  # py-spy names a method by its class too (`Sampler.__iter__`)
    if name in _COMPREHENSIONS:  # a comprehension's own frame (3.11) is its loop
        return True
    return any(func == name and first <= line <= last for func, first, last in _loop_lines(frame.file))


_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = ("<listcomp>", "<genexpr>", "<dictcomp>", "<setcomp>")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


@functools.lru_cache(maxsize=256)
def _loop_lines(path: str) -> tuple[tuple[str, int, int], ...]:
    """(the function it is in, its first line, its last) of every `for` and `while` statement of a source file,
    a module's own as `<module>`; () where it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return ()
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, func: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _LOOPS):
                found.append((func, child.lineno, child.end_lineno or child.lineno))
            inner = getattr(child, "name", "<lambda>") if isinstance(child, _SCOPES) else func
            visit(child, inner)

    visit(tree, "<module>")
    return tuple(found)


# stacks.txt's line under a process that ran as it was caught: ISSUE.md tells a loop, one call that never returned
# and a wait apart by it
LOOPED = "(its main thread was running as it was caught, on other lines from sample to sample: a loop)"
STAYED = "(its main thread was running as it was caught, on one line in every sample: a call that never returned)"
RAN = "(its main thread was running as it was caught)"


def busy_mark(stacks_txt: str) -> str:
    """stacks.txt's word on its main process (LOOPED, STAYED, RAN), where it was running as it was caught; ""."""
    main = stacks_txt.split("\n=== pid ")[0]
    return next((mark for mark in (LOOPED, STAYED, RAN) if mark in main), "")


def how_busy(process: ProcessStacks) -> str:
    """stacks.txt's word on a busy process: it looped, it stayed in one call, or (one sample) it ran."""
    thread = main_thread(process.threads, process.pid)
    if thread is None or not process.samples:
        return RAN
    return LOOPED if looped(thread.frames, process.samples) else STAYED
