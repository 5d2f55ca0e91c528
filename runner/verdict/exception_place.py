"""Where a Python exception came from, read from the traceback a cell printed (pure; never imports torch).

- The failing exception's traceback is the last one printed: for chained exceptions ("During handling of the
  above exception...", "The above exception was the direct cause..."), the final one; for a DataLoader
  worker's exception re-raised in the main process ("Caught X in DataLoader worker process N. Original
  Traceback (most recent call last):"), the worker's own, printed inside the message, since the error came
  from there. A rank's own traceback is given by verdict/ranks.py (its `[rankN]:` lines), never a
  launcher's.
- The place is the frame that raised: the program's own (`app/data/reader.py:18 in check_label`, its path
  from the app's root), or a library's (its path below site-packages or below the standard library's folder)
  and then the program's innermost frame that called into it (`json/decoder.py:353 in raw_decode;
  app/data/reader.py:7 in parse_label`).
- An out-of-memory error, and a CUDA error's launch under synchronous launches, are placed at the line that
  allocated or launched: the op (`empty`, `embedding`), a library frame other than torch's on the way
  (`transformers/models/bert/modeling_bert.py:99 in forward`), then the program's line.

crashmatrix's own frames (its child, the in-cell code) are never the place; its probes stand for a program.
"""

from __future__ import annotations

import re

from crashmatrix.verdict import ranks
from crashmatrix.verdict.app_paths import app_root, from_root
from crashmatrix.verdict.gpu_logs import KERNEL_ASSERT
from crashmatrix.verdict.gpu_logs import _called as called_op  # what a source line calls: one reading of it
from crashmatrix.verdict.own_cleanup import FINALIZER_FIRST
from crashmatrix.verdict.parsed import (
    FRAME,
    GENERATOR_STOPPED,
    TORCHSCRIPT_FAILED,
    Traceback,
    main_reraised_worker,
    read_output,
)
from crashmatrix.verdict.stacks import (
    OURS,
    Frame,
    below_packages,
    in_cell_elsewhere,
    is_probe,
    is_programs,
    is_torch_file,
    library_text,
    program_place,
)

_FRAME = FRAME
# The folder a cell's PYTHONPATH gets crashmatrix from (process/package_path.py), or an installed crashmatrix.
_OUR_COPY = re.compile(r"/(?:\.crashmatrix-path|site-packages|dist-packages)/crashmatrix/")
# An exception's class and message that say memory ran out (signature.py's memory causes, torch's CUDA OOM).
_OUT_OF_MEMORY = re.compile(
    r"^(?:[\w.]+\.)?\w*MemoryError\b|CUDA out of memory|can't allocate memory|std::bad_alloc", re.M
)
# Python's MemoryError and a library's subclass of it (numpy's _ArrayMemoryError), not torch's OutOfMemoryError:
# raised by a call with no frame of its own (`bytearray(n)`, `np.zeros(shape)`), whose name before the program's
# line reads as a place that is none (two held-out sets' judges, tests/zoo/HELDOUT2.md and HELDOUT3.md).
_PYTHONS_MEMORY_ERROR = re.compile(r"^(?:[\w.]+\.)?(?!\w*OutOfMemoryError)\w*MemoryError\b")
# A module's forward and torch's decorators' inner functions name no op.
_NOT_OPS = frozenset({"forward", "wrapper", "wrapped", "inner", "decorate_context", "_fn"})


def last_traceback(text: str, error: str = "") -> tuple[list[tuple[Frame, str]], str]:
    """(frames with their source line, innermost first; the exception's first line) of the failing
    exception's traceback: the last one printed, but for those of exceptions Python ignored (`Exception
    ignored in: <function X.__del__>`). error: the row's telling line; where an earlier traceback holds it
    and the last does not, that one (a spawned worker's RuntimeError about the missing main guard, before
    the main process's own 'worker exited unexpectedly'); a process pool worker's traceback where it is the
    direct cause of that one. crashmatrix's own frames are left out."""
    heads = _printed(text, ignored=FINALIZER_FIRST in error)
    if not heads:
        return [], ""
    head = _holding(text, heads, error)
    at = heads.index(head)
    if at and main_reraised_worker(heads[at - 1], head):
        # a DataLoader worker's error the main caught and raised again in its own words (`raise ... from err`):
        # the worker failed first, and its own line is the place, as where the loader re-raised it alone (the
        # hundred-and-second held-out set's tqdm_truncated_chain)
        head = heads[at - 1]
    elif head.chained and at and heads[at - 1].origin == "remote":
        # a process pool's worker failed first (its traceback, which the main re-raised with it as the cause, is
        # printed before the main's): the worker's own line is the place, as a loader worker's is; the first of
        # the worker's own chain where its own cleanup (a `with`'s __exit__, a `finally:`) raised again as it
        # unwound, as in the main (own_cleanup.py); not where its `except` body raised: that is its own report
        at -= 1
        while at and heads[at].chained and heads[at - 1].origin == "remote" and _cleanup_raised(text, heads, at):
            at -= 1
        head = heads[at]
    return _frames(head), head.exception


def _cleanup_raised(text: str, heads: list[Traceback], at: int) -> bool:
    """Whether heads[at] was raised by the program's own cleanup as heads[at - 1] unwound."""
    from crashmatrix.verdict.own_cleanup import masked_by_own_cleanup

    end = heads[at + 1].start if at + 1 < len(heads) else len(text)
    return bool(masked_by_own_cleanup(text[heads[at - 1].start : end], heads[at].exception))


def _printed(text: str, ignored: bool = False) -> list[Traceback]:
    """The tracebacks text holds on their own lines, but for those of exceptions Python ignored (unless ignored: a
    finalizer's that failed first) or multiprocessing's exit cleanup reported, and a Manager's server's that the
    main's RemoteError quotes (the main's own traceback is the program's call)."""
    return [
        t
        for t in read_output(text).tracebacks
        if t.on_own_line and (ignored or not t.ignored) and not t.by_exit_cleanup and t.origin != "manager"
    ]


def _frames(head: Traceback) -> list[tuple[Frame, str]]:
    """A traceback's frames with their source line, innermost first, crashmatrix's own left out."""
    return [(call.frame(), call.code) for call in head.calls if not is_ours(call.path)][::-1]


def each_traceback(text: str) -> list[str]:
    """The tracebacks text holds, each from its head to the next one's, in the order printed, but for those
    of exceptions Python ignored."""
    heads = [t for t in read_output(text).tracebacks if t.on_own_line]
    ends = [t.start for t in heads[1:]] + [len(text)]
    return [text[t.start : end] for t, end in zip(heads, ends) if not t.ignored]


def _holding(text: str, heads: list[Traceback], error: str) -> Traceback:
    """The last traceback whose text holds the telling line (whitespace aside); the last one where none
    does, or the last holds it too."""
    said = " ".join(error.split(";")[0].split())
    if not said:
        return heads[-1]
    ends = [h.start for h in heads[1:]] + [len(text)]
    printed = [" ".join(text[h.start : end].split()) for h, end in zip(heads, ends)]
    # the whole line first: two tracebacks of one exception type and path prefix (a task's and then the main's
    # FileNotFoundError for another file) part only at their ends; else its start, as a row may have cut it
    for telling in (said, said[:60]):
        holding = [h for h, words in zip(heads, printed) if telling in words]
        if holding:
            return holding[-1]
    return heads[-1]


def is_ours(path: str) -> bool:
    """crashmatrix's own file (its child, the in-cell code), in this checkout, a cell's copy or installed, or
    the in-cell code of another checkout; its probes are not: they stand for a program."""
    path = path.replace("\\", "/")
    if is_probe(path):
        return False
    return path.startswith(OURS + "/") or bool(_OUR_COPY.search(path)) or in_cell_elsewhere(path)


def failing_output(stderr: str) -> str:
    """The output whose exception failed the run: a distributed job's failing rank's own (verdict/ranks.py), never
    the launcher's report printed after it ("" where the rank printed none and torchrun reported it); else stderr
    itself."""
    root = ranks.root_failure(stderr) if ranks.is_distributed(stderr) else None
    if (
        root is not None
        and not root.text
        and not root.signal
        and root.rank is not None
        and "ChildFailedError" in stderr
    ):
        return ""  # a rank torchrun reports ended, that printed nothing: torchrun's raise holds no frame of the job
    return root.text if root is not None and root.text else stderr


def is_out_of_memory(exception: str) -> bool:
    return bool(_OUT_OF_MEMORY.search(exception))


# A shell's own error in a launcher script (bash: `/app/scripts/train.sh: line 25: MASTER_ADDR: unbound variable`,
# `...: line 7: cd: runs: No such file or directory`; dash: `scripts/x.sh: 3: ...`): the script and its line.
_SHELL_ERROR = re.compile(r"^(?P<path>/\S+\.(?:sh|bash)): (?:line )?(?P<line>\d+): \S")


def shell_place(error: str) -> str:
    """`scripts/train.sh:25`: where a shell script the cell ran failed, from the shell's own error line, its
    path from the app's root; "" where the telling line is not a shell's."""
    found = _SHELL_ERROR.match(error)
    if not found:
        return ""
    return f"{from_root(found['path'], app_root(found['path']))}:{found['line']}"


def exception_place(text: str, oom: bool = False, error: str = "") -> str:
    """`where` for the failing exception in text; "" where text holds no traceback. oom: place it at the
    allocating line, as an out-of-memory error of the exception's own words is placed anyway. error: the
    row's telling line, whose traceback it is (last_traceback); a shell's own error (shell_place) where text
    holds no traceback."""
    frames, exception = last_traceback(text, error)
    if not frames:
        return shell_place(error)
    if GENERATOR_STOPPED.match(exception):
        frames = _generator_stopped(text, exception) or frames
    frames = frames + _handled_in(text, frames)
    if oom or is_out_of_memory(exception):
        if _PYTHONS_MEMORY_ERROR.match(exception):  # a builtin's or numpy's allocation: its line is the place
            return _join(frames[0][0], frames)
        return op_place(frames, allocation=True) or _join(frames[0][0], frames)
    traced = _traced(text) if _is_torch(frames[0][0]) else None
    if traced is None and exception.endswith(TORCHSCRIPT_FAILED):  # a scripted function the program called
        # directly raises at the program's own line, no torch frame between; a traced module's in torch's
        traced = _torchscripts(text)
    if traced is not None:
        return _traced_place(frames[0][0], traced, frames)
    return _join(frames[0][0], frames)


# torch.compile's error for code it could not trace (a graph break under fullgraph=True, a backend's failure): the
# traceback ends in torch/_dynamo, called from where the compiled model was called; the line that broke the trace
# is in the message's `from user code:` block, innermost last.
_USER_CODE = "\nfrom user code:\n"


# TorchScript's traceback inside its error's message: a scripted model's in Python's form (`  File "app/model.py",
# line 7, in forward`, innermost last); a traced model's as `app/model.py(35): forward`, where the model's line
# comes first, then the stack that traced it.
_TORCHSCRIPT_TRACEBACK = re.compile(r"^Traceback of TorchScript(?:, original code)? \(most recent call last\):$", re.M)
_TRACED_FRAME = re.compile(r"^(?P<file>\S.*?)\((?P<line>\d+)\): (?P<func>\S+)$")


def _traced(text: str) -> Frame | None:
    """The innermost program frame of the last `from user code:` block (torch.compile's), or None."""
    at = text.rfind(_USER_CODE)
    if at == -1:
        return None
    block = []
    for line in text[at + len(_USER_CODE) :].splitlines():
        m = _FRAME.match(line)
        if m:
            block.append(Frame(m["func"], m["file"], m["line"]))
        elif not line.strip() or not line[:1].isspace():
            break
    own = [f for f in block if is_programs(f)]
    return own[-1] if own else None


def _torchscripts(text: str) -> Frame | None:
    """The program's frame TorchScript's traceback names for the op that failed, or None."""
    heads = list(_TORCHSCRIPT_TRACEBACK.finditer(text))
    if not heads:
        return None
    python_form, traced_form = [], []
    for line in text[heads[-1].end() + 1 :].splitlines():
        if (m := _FRAME.match(line)) is not None:
            python_form.append(Frame(m["func"], m["file"], m["line"]))
        elif (m := _TRACED_FRAME.match(line)) is not None:
            traced_form.append(Frame(m["func"], m["file"], m["line"]))
        elif line[:1].strip():  # the exception's line that ends it
            break
    # a traced model's frames down to torch.jit's own are the model's forward as it was traced; those after are
    # the program's call of torch.jit.trace, no place of the failing op (a torch module's op has none of the
    # program's: a traced nn.Linear given the wrong width)
    tracing = next((i for i, f in enumerate(traced_form) if "/torch/jit/" in f.file.replace("\\", "/")), None)
    own = [f for f in traced_form[:tracing] if is_programs(f)][:1] or [f for f in python_form if is_programs(f)][-1:]
    return own[0] if own else None


def _traced_place(raised: Frame, traced: Frame, frames: list[tuple[Frame, str]]) -> str:
    """`torch/_dynamo/eval_frame.py:1177 in compile_wrapper; comp.py:11 in forward, traced from comp.py:17 in
    main`: torch's raising frame, the program's line that broke the trace, and its call that was traced."""
    caller = next((f for f, _code in frames if is_programs(f)), None)
    place = (
        f"{library_text(raised)}; {own_text(traced, frames)}" if not is_programs(raised) else own_text(traced, frames)
    )
    return place + (f", traced from {own_text(caller, frames)}" if caller else "")


def starting_call(stderr: str, error: str, loader_worker: bool = False) -> str:
    """`o_dist/launch.py:45 in main`: where the failing exception is a child process's (an mp.spawn rank, a
    DataLoader worker, a process pool's worker) and no frame of its traceback is the program's (spawn's _wrap
    calling the function with arguments it does not take, a loader worker calling a worker_init_fn of another
    arity), the program's call that started that child: the innermost program frame of the main process's
    traceback that reported it, printed before it. loader_worker: the failure is a DataLoader worker's, which may
    have failed as spawn started it (its traceback from spawn_main, printed before the loader's report of it). ""
    otherwise."""
    heads = _printed(stderr)
    if not heads:
        return ""
    child = _holding(stderr, heads, error)
    starting = loader_worker and started_by_spawn(child)
    if not (child.origin.startswith(_CHILD_ORIGINS) or starting) or any(is_programs(f) for f, _code in _frames(child)):
        return ""
    parents = [
        h for h in heads if h.origin == "main" and (h.start > child.start if starting else h.start < child.start)
    ]
    for parent in reversed([h for h in parents if not started_by_spawn(h)]):
        frames = _frames(parent)
        caller = next((f for f, _code in frames if is_programs(f)), None)
        if caller:
            return own_text(caller, frames)
    return ""


def started_by_spawn(traceback: Traceback) -> bool:
    """A traceback a process started by spawn or forkserver printed as it started, before running anything it was
    sent: through spawn's _main (unpickling its process object, or importing the main script again), from
    `<string>`'s spawn_main, or forkserver's _serve_one. What a started process raises is printed from its
    Process._bootstrap, below spawn's frames."""
    return any(
        c.function in ("spawn_main", "_main") and c.path.replace("\\", "/").endswith("multiprocessing/spawn.py")
        for c in traceback.calls
    )


# A traceback's origin (parsed.py) that is a process the main started and whose failure the main reports.
_CHILD_ORIGINS = ("rank ", "worker", "remote")


# the head of the cause a PEP 479 RuntimeError chains: Python's, or a DataLoader worker's re-raised one in the main's
_CAUSE_HEAD = re.compile(r"^(?:Original )?Traceback \(most recent call last\):$", re.M)


def _generator_stopped(text: str, exception: str) -> list[tuple[Frame, str]]:
    """The frames of the StopIteration a generator let out, which Python turned into `exception` (PEP 479,
    GENERATOR_STOPPED), innermost first: the generator's line is where the program's iteration ran out. [] where the
    text does not hold that cause just before the failing exception."""
    end = text.rfind("\n" + exception)
    cause = text.rfind("\nStop", 0, end)
    head = list(_CAUSE_HEAD.finditer(text, 0, max(cause, 0)))
    if end == -1 or cause == -1 or not head or "direct cause" not in text[cause:end]:
        return []
    found = [m for m in (_FRAME.match(line) for line in text[head[-1].end() : cause].splitlines()) if m]
    frames = [(Frame(m["func"], m["file"], m["line"]), "") for m in found]
    return [(f, code) for f, code in reversed(frames) if not is_ours(f.file)]


def _handled_in(text: str, frames: list[tuple[Frame, str]]) -> list[tuple[Frame, str]]:
    """Where a library's own frames alone hold the failing exception (caught inside the library call, then masked
    by an error of its cleanup: classify._masked_in_cleanup), the frames of the traceback printed after it, whose
    outer frames are the program's call into that library; [] otherwise."""
    if not frames or any(is_programs(f) for f, _code in frames):
        return []
    heads = _printed(text)
    held = next((i for i, h in enumerate(heads) if _frames(h) == frames), None)
    if held is None or held + 1 >= len(heads) or not heads[held + 1].chained:
        return []
    return _frames(heads[held + 1])


def _join(raised: Frame, frames: list[tuple[Frame, str]]) -> str:
    """The raising frame; where it is a library's, the program's innermost frame after it."""
    if is_programs(raised):
        return own_text(raised, frames)
    caller = next((f for f, _code in frames if is_programs(f)), None)
    return "; ".join(p for p in (library_text(raised), own_text(caller, frames) if caller else "") if p)


def op_place(frames: list[tuple[Frame, str]], kernel: str = "", allocation: bool = False) -> str:
    """`embedding; transformers/models/bert/modeling_bert.py:99 in forward; app/model.py:12 in step`: the op the
    program's innermost frame called (kernel: a device-side assert's kernel, for a line that names no call),
    an installed library's frame other than torch's on the way, that frame; "" where no frame is the program's.
    allocation: the op is the line's outermost call (`empty` in `torch.empty(int(n))`), not its last."""
    at = next((i for i, (f, _code) in enumerate(frames) if is_programs(f)), None)
    if at is None:
        return ""
    inner = frames[:at]
    user, code = frames[at]
    # an installed library's (transformers'), not the standard library's plumbing (functools, contextlib); a
    # compiled one's frames are named by its Cython source, below its package (cupy/_core/raw.pyx)
    library = next((f for f, _code in inner if not _is_torch(f) and (below_packages(f.file) or _is_cython(f))), None)
    torch_op = _torch_op(inner)
    op = torch_op or (_outermost_call(code) if allocation else called_op(code, kernel)) or kernel
    if library is not None and _is_cython(library) and not torch_op:
        # the line's last call (an argument's np.int32) is no op: the compiled library's frame the program
        # called says it (RawKernel.__call__, not the status check that raised deep inside)
        op, library = "", next(f for f, _code in reversed(inner) if _is_cython(f))
    parts = (op, library_text(library) if library else "", own_text(user, frames))
    return "; ".join(p for p in parts if p)


_CALL = re.compile(r"(?:\.|\b)([A-Za-z_]\w*)\s*\(")


def _outermost_call(code: str) -> str:
    found = _CALL.search(code.split("#")[0])
    return found[1] if found and not code.startswith("raise") else ""


def _is_cython(frame: Frame) -> bool:
    """A compiled library's frame, named by its Cython source as the module was built (`cupy/_core/raw.pyx`)."""
    return frame.file.endswith(".pyx") and not frame.file.startswith("/")


def _is_torch(frame: Frame) -> bool:
    return is_torch_file(frame.file)


def _torch_op(inner: list[tuple[Frame, str]]) -> str:
    """The innermost public torch function below the program's frame (`embedding`, `cross_entropy`,
    `all_reduce`), else the call in torch's innermost line (`F.linear(...)` in a module's forward)."""
    torch_frames = [(f, code) for f, code in inner if _is_torch(f)]
    for f, _code in torch_frames:
        if not f.func.startswith("_") and f.func not in _NOT_OPS and not f.func.startswith("<"):
            return f.func
    return called_op(torch_frames[0][1], "") if torch_frames else ""


def own_text(frame: Frame, frames: list[tuple[Frame, str]]) -> str:
    """`app/data/reader.py:7 in parse_label`: the program's frame by its path from the app's root
    (stacks.program_place, from the traceback's frames)."""
    return program_place(frame, [f for f, _code in frames])


def launch_place(text: str) -> str:
    """From a rerun under CUDA_LAUNCH_BLOCKING=1: the op that launched the failing kernel, a library's frame on
    the way, the program's line; "" where no frame is the program's."""
    frames, _exception = last_traceback(text)
    found = KERNEL_ASSERT.search(text)
    kernel = found["kernel"].strip() if found else ""
    place = op_place(frames, kernel)
    if place:
        return place
    # The last traceback can be a library's teardown after the failure, none of the program's frames in it
    # (cupy's Module.__dealloc__ at exit, reported by Cython after its traceback, not before as Python's
    # `Exception ignored in:` is): the launch's is the last that passes through the program's code.
    for head in reversed(_printed(text)):
        place = op_place(_frames(head), kernel)
        if place:
            return place
    return ""
