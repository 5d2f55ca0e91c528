"""What a synchronous rerun's output says: the launching line, and cuDNN's and NCCL's own logs.

Pure text in, one short clause out (controller side; never imports torch).

- A source line of the program: the op it launched, the call it makes or, for an assignment into an
  index, that assignment; a device-side assert's CUDA kernel (exception_place.launch_place reads the
  rerun's traceback with these).
- A cuDNN API log (cuDNN 8: CUDNN_LOGINFO_DBG/CUDNN_LOGERR_DBG; cuDNN 9:
  CUDNN_LOGLEVEL_DBG): blocks `I! CuDNN (v90100) function cudnnX() called:`,
  their lines prefixed `i!`/`e!`. The failing call, its operation and engine.
- An NCCL debug log (NCCL_DEBUG=INFO): lines `host:pid:tid [cudaDev] file.cc:N NCCL WARN text`;
  the first WARN is the cause, later ones pass it on.
"""

from __future__ import annotations

import re

_CALL = re.compile(r"(?:\.|\b)([A-Za-z_]\w*)\s*\(")
_SUBSCRIPTED = re.compile(r"\b([A-Za-z_]\w*)\[")
# e.g. `/pytorch/aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0],
# thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.`
KERNEL_ASSERT = re.compile(
    r"^\S+\.cuh?:\d+: (?P<kernel>[\w:<>, ]+?): block: \[[\d,]+\], thread: \[[\d,]+\] Assertion", re.M
)


def _called(code: str, kernel: str) -> str:
    """The last function a source line calls, left of its comment: `index_select` in `y = w.index_select(0, i)`.

    An assignment into an index (`x[rows] = 1.0`) is the op itself, whatever the index expression calls:
    on an H100 `x[torch.tensor([2**20], device="cuda")] = 1.0` failed in the indexing kernel, not in
    `tensor`. A read through an index without a call (`w[mask]`) is `indexing`. Its kernel names either
    where the assert gave a name (that kernel's was `operator()`)."""
    if code.startswith("raise"):  # the program raised it itself: the exception's class is no op
        return ""
    code = code.split("#")[0]
    named = kernel if kernel and not kernel.startswith("operator") else ""
    if _INDEX_ASSIGNMENT.match(code):
        return named or "index assignment"
    calls = _CALL.findall(code)
    launched = _kernel_launch(code) or (calls[-1] if calls else "")
    if not launched and _SUBSCRIPTED.search(code):
        # a read through an index launches the indexing kernel itself: on an H200 `class_weights[mask]`, a
        # mask holding 255 of 4 classes, failed in IndexKernel.cu's `operator()`
        return named or "indexing"
    return launched


def _kernel_launch(code: str) -> str:
    """`_double_rows` in `_double_rows[(n,)](x, out, stride)`: a Triton kernel launched over its grid, the
    op a line launches (the calls inside its grid and arguments are not)."""
    for found in _SUBSCRIPTED.finditer(code):
        depth = 0
        for i in range(found.end() - 1, len(code)):
            depth += {"[": 1, "]": -1}.get(code[i], 0)
            if depth == 0:
                break
        if depth == 0 and code[i + 1 :].lstrip().startswith("("):
            return found[1]
    return ""


# `x[i] = v`, `self.buf[i, j] += v`: a subscripted name on the left of the line's assignment.
_INDEX_ASSIGNMENT = re.compile(r"^[\w.]+\[.*\]\s*(?:[-+*/%&|^@]|//|<<|>>|\*\*)?=(?!=)")


# --- cuDNN ------------------------------------------------------------------------

_CUDNN_BLOCK = re.compile(
    r"^(?P<level>[IWE])! CuDNN \(v(?P<version>\d+)[^)]*\) function (?P<func>\w+)\(\) called:", re.M
)
_CUDNN_STATUS = re.compile(r"\b(CUDNN_STATUS_(?!SUCCESS\b)[A-Z_]+)(?:; Reason: (?P<reason>[^\n]*))?")
_CUDNN_OP = re.compile(r"CUDNN_BACKEND_OPERATION_(\w+?)_DESCRIPTOR")
_CUDNN_ENGINE = re.compile(r"global_index: type=int64_t; val=(-?\d+)")
_CUDNN8_ALGO = re.compile(r"algo: type=\w+; val=(CUDNN_\w+)")


def _cudnn_blocks(log: str) -> list[tuple[str, str, str]]:
    """(level, function, body) per logged call, in order; `Warning:` lines left out: cuDNN 9 logs them by
    the hundred (CUDNN_STATUS_NOT_SUPPORTED...) while it searches for an engine, in calls that succeed."""
    heads = list(_CUDNN_BLOCK.finditer(log))
    blocks = []
    for i, h in enumerate(heads):
        body = log[h.end() : heads[i + 1].start() if i + 1 < len(heads) else len(log)]
        blocks.append((h["level"], h["func"], "\n".join(ln for ln in body.split("\n") if "Warning:" not in ln)))
    return blocks


def cudnn_failure(log: str) -> str:
    """`cuDNN cudnnBackendExecute: convolution forward, engine 3: CUDNN_STATUS_EXECUTION_FAILED (reason)`."""
    blocks = _cudnn_blocks(log)
    # `W!` blocks are cuDNN 9's engine search too (seen on an H100, cuDNN 9.19): no failure.
    failed = next(
        (i for i, (lv, _f, body) in enumerate(blocks) if lv == "E" or (lv == "I" and _CUDNN_STATUS.search(body))),
        None,
    )
    if failed is None:
        return ""
    _lv, func, body = blocks[failed]
    # The error block may carry only the status: the same call's info block before it has the plan.
    before = next((b for lv, f, b in reversed(blocks[:failed]) if f == func and lv == "I"), "")
    context = body + before
    status = _CUDNN_STATUS.search(body)
    reason = status["reason"] if status and status["reason"] else _reason_after(blocks[failed + 1 : failed + 2], func)
    op = _CUDNN_OP.search(context)
    engine = _CUDNN_ENGINE.search(context)
    algo = _CUDNN8_ALGO.search(context)
    what = [op[1].lower().replace("_", " ") if op else ""]
    what.append(f"engine {engine[1]}" if engine else (algo[1] if algo else ""))
    detail = ", ".join(w for w in what if w)
    text = f"cuDNN {func}" + (f": {detail}" if detail else "")
    if status:
        text += f": {status[1]}" + (f" ({reason.strip()})" if reason else "")
    return text


# cuDNN 9.19 (an H200) logs a failed call's status in its `I!` block, then its reason in a `W!` block of the
# same call: `Error: CUDNN_STATUS_INTERNAL_ERROR; Reason: cudaStreamCreateWithFlags(...) != cudaSuccess`.
_CUDNN_REASON = re.compile(r"Error: CUDNN_STATUS_[A-Z_]+; Reason: (?P<reason>[^\n]*)")


def _reason_after(following: list[tuple[str, str, str]], func: str) -> str:
    """The reason the failed call's next block gives, where that block is the same call's."""
    for _lv, f, body in following:
        found = _CUDNN_REASON.search(body) if f == func else None
        if found:
            return found["reason"]
    return ""


# cudnn_failure's text in `where`: `cuDNN cudnnCreate: CUDNN_STATUS_INTERNAL_ERROR (reason)`, up to the next part
_CUDNN_PART = re.compile(r"\bcuDNN (?P<call>cudnn\w+)(?P<rest>[^;]*)")


def cudnn_call(where: str) -> str:
    """The cuDNN call that failed, as `where` has it from cudnn_failure (`cudnnCreate`); "" where none."""
    found = _CUDNN_PART.search(where)
    return found["call"] if found else ""


def cudnn_setup_failure(where: str) -> str:
    """The reason cuDNN could not make its handle, as the synchronous rerun's cuDNN log gave it (`cudnnCreate:
    CUDNN_STATUS_INTERNAL_ERROR (cudaStreamCreateWithFlags(...) != cudaSuccess)`); "" for any other place."""
    found = _CUDNN_PART.search(where)
    if not found or found["call"] != "cudnnCreate":
        return ""
    return (found["call"] + found["rest"]).removesuffix(", synchronous rerun")


# --- NCCL -------------------------------------------------------------------------

# `host:pid:tid [cudaDev] file.cc:N NCCL WARN text`; NCCL 2.28 (seen on an H100) puts `[date time] ` first.
_NCCL_WARN = re.compile(
    r"^(?:\[[^\]\n]*\] )?(?P<host>[^\s:]+):(?P<pid>\d+):(?P<tid>\d+) \[(?P<dev>\d+)\] "
    r"(?:(?P<src>\S+:\d+) )?NCCL WARN (?P<text>.*)$",
    re.M,
)


def nccl_warning(logs: list[str]) -> str:
    """The first `NCCL WARN` line of NCCL's own logs (one per process): `NCCL WARN text (src, rank N)`."""
    for log in logs:
        m = _NCCL_WARN.search(log)
        if m:
            where = ", ".join(p for p in (m["src"] or "", f"GPU {m['dev']}") if p)
            return f"NCCL WARN {m['text'].strip()} ({where})"
    return ""
