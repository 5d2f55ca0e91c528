"""`crashmatrix diagnose LOG --matrix FILE --command CMD` (issue 49, 2): the matrix that would find the cause.

From the diagnosed failure's kind, the suspects worth sweeping, as knobs applied from outside (inject: the
program runs unmodified, as `crashmatrix run -- CMD` runs it): a loader worker's death or a start-up refusal,
the start method, the workers and pinning; a cuDNN or CUDA error, cuDNN's flags and synchronous launches; a
collective that timed out or a rank that died, DDP's own knobs; anything else, the process knobs the crash
reports name first. The file is an ordinary matrix (runner/matrix/from_command.py makes it), which
`crashmatrix run FILE` runs as written; it is never written over an existing file.
"""

from __future__ import annotations

import os
import shlex

from crashmatrix.errors import BadInput
from crashmatrix.matrix.from_command import command_matrix
from crashmatrix.outcome import Outcome

_LOADER = ["start_method=fork,spawn,forkserver", "num_workers=0,2", "pin_memory=false,true"]
# signature's class word (or its outcome) -> the axes to sweep, in Hydra's sweep grammar
SUSPECTS: dict[str, list[str]] = {
    "missing_main_guard": ["start_method=fork,spawn,forkserver"],
    "cuda_after_fork": ["start_method=fork,spawn,forkserver", "num_workers=0,2"],
    "worker_signal": _LOADER,
    "worker_exited": _LOADER,
    "shm_full": [*_LOADER, "shm_mb=64,4096"],
    "fd_exhaustion": ["sharing_strategy=file_descriptor,file_system", "num_workers=0,2", "rlimit.nofile=1024,65536"],
    "pin_memory_thread": ["pin_memory=false,true", "num_workers=0,2"],
    "cudnn_error": ["cudnn.benchmark=false,true", "cudnn.deterministic=false,true", "env.CUDA_LAUNCH_BLOCKING=0,1"],
    Outcome.CUDA_ERROR.value: ["cudnn.enabled=false,true", "env.CUDA_LAUNCH_BLOCKING=0,1"],
    "nccl_timeout": ["ddp.find_unused_parameters=false,true", "ddp.static_graph=false,true"],
    Outcome.RANK_CRASH.value: ["start_method=fork,spawn", "num_workers=0,2"],
    "memory_error": ["num_workers=0,2", "persistent_workers=false,true"],
}
_DEFAULT = ["start_method=fork,spawn", "num_workers=0,2", "pin_memory=false,true"]


def suspects(row: dict) -> list[str]:
    """The axes worth sweeping for the diagnosed row's kind of failure."""
    word = row.get("signature", "").split(" ", 1)[0].rstrip(":")
    if word == "worker_signal" and row.get("signal") == "SIGBUS":
        return [*_LOADER, "shm_mb=64,4096"]  # a bus error: a mapped file cut short, or a /dev/shm too small
    return SUSPECTS.get(word) or SUSPECTS.get(row.get("outcome", "")) or _DEFAULT


def write_proposal(path: str, row: dict, command: str | None, cwd: str) -> tuple[str, list[str]]:
    """Write the matrix to `path` (new); (its text, the axes) for the caller to print."""
    import yaml

    if not command:
        raise BadInput("--matrix: give the failing job's command too (--command 'python train.py lr=0.1')")
    if os.path.exists(path):
        raise BadInput(f"{path}: exists; crashmatrix never writes over a file (give a new --matrix path)")
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise BadInput(f"--command: {e}") from None
    axes = suspects(row)
    data = command_matrix(argv, axes, None, cwd)
    data["description"] = f"proposed by crashmatrix diagnose for {row.get('outcome', '')}: {row.get('error', '')}"[:300]
    text = yaml.safe_dump(data, sort_keys=False)
    try:
        with open(path, "x", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise BadInput(f"{path}: cannot write it ({e.strerror or e})") from None
    return text, axes
