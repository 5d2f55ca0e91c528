"""What a cell may write, and where: each cell run's files inside its own cell directory.

Concurrent cells must never share a directory (an app's run directory timestamped to the second is
shared by every cell started in that second: they overwrite each other's checkpoints), and nothing
of the user's tree is written. So each run gets, inside its cell directory:

- `tmp/`: its TMPDIR (multiprocessing's sockets, torch's and the app's scratch files);
- wandb's directory (WANDB_DIR, the cell directory: wandb adds its own `wandb/`);
- `outputs/`: for a Hydra app (a script or `python -m` module with `@hydra.main`), Hydra's run
  and sweep directory, passed as `hydra.run.dir=...` and `hydra.sweep.dir=...`.

What the matrix sets itself is the user's choice and wins: an `env:` entry or `env.*` axis for a
variable, a param, axis or command argument for Hydra's directory (then cells may share it).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
import tempfile
import threading

OUTPUTS = "outputs"
SCRATCH = "tmp"
HYDRA_RUN_DIR = "hydra.run.dir"
HYDRA_SWEEP_DIR = "hydra.sweep.dir"

# An AF_UNIX socket path holds at most 107 bytes, and multiprocessing (forkserver) puts its listener
# 32 characters deep in TMPDIR: a longer TMPDIR fails the cell with "AF_UNIX path too long". Leave
# room for deeper names (torch's shm manager) too.
_SHORT_ENOUGH = 60
_LINKS: set[str] = set()  # short links to cells' scratch directories, removed when each cell ends
_LINKS_LOCK = threading.Lock()


def user_set(matrix_env: dict, values: dict) -> set[str]:
    """The environment variables the matrix itself sets: its `env:` entries and `env.*` axes."""
    return set(matrix_env) | {k[4:] for k in values if k.startswith("env.")}


def give_dirs(env: dict, cell_dir: str, chosen: set[str]) -> None:
    """TMPDIR and WANDB_DIR inside the cell directory, unless the matrix chose them.

    The controller's own environment does not count as a choice: one directory for every cell is
    exactly what must not happen.
    """
    if "TMPDIR" not in chosen:
        env["TMPDIR"] = scratch_dir(cell_dir)
    if "WANDB_DIR" not in chosen:
        env["WANDB_DIR"] = cell_dir


def scratch_dir(cell_dir: str) -> str:
    """The cell's `tmp/`, made now; reached through a short link in the system's temporary folder
    when its own path is too long for the sockets made inside it (the files stay in the cell)."""
    path = os.path.join(cell_dir, SCRATCH)
    os.makedirs(path, exist_ok=True)
    if len(path) <= _SHORT_ENOUGH:
        return path
    link = _link_to(path)
    if link is None:
        return path  # no link to be had: the long path still serves whatever makes no socket
    with _LINKS_LOCK:
        _LINKS.add(link)
    return link


def _link_to(path: str) -> str | None:
    """A short link to path in the system's temporary folder, named after path: a controller killed
    mid-cell cannot remove its link, and the cell's next run (--resume) takes it over and removes it
    when it ends. A name another user holds, or one pointing elsewhere, is never followed: then a
    fresh name."""
    named = os.path.join(tempfile.gettempdir(), "cm-" + hashlib.sha256(path.encode()).hexdigest()[:12])
    for link in (named, tempfile.mktemp(prefix="cm-", dir=tempfile.gettempdir())):
        try:
            os.symlink(path, link)
            return link
        except FileExistsError:
            if _points_to(link, path):
                return link
        except OSError:
            return None
    return None


def _points_to(link: str, path: str) -> bool:
    try:
        return os.lstat(link).st_uid == os.getuid() and os.readlink(link) == path
    except OSError:
        return False


def release(env: dict) -> None:
    """Remove the short link a cell's TMPDIR went through, once the cell has ended."""
    link = env.get("TMPDIR", "")
    with _LINKS_LOCK:
        if link not in _LINKS:
            return
        _LINKS.discard(link)
    try:
        os.unlink(link)
    except OSError:
        pass


def moved(argv: list, env: dict, cell_dir: str, new_dir: str) -> tuple[list, dict]:
    """argv and env of a run again in `new_dir` (the synchronous rerun in the cell's sync/): the
    directories given to `cell_dir` become new_dir's own; the user's choices stay."""
    env = dict(env)
    if env.get("WANDB_DIR") == cell_dir:
        env["WANDB_DIR"] = new_dir
    tmp = env.get("TMPDIR", "")
    with _LINKS_LOCK:
        ours = tmp in _LINKS
    if ours or tmp == os.path.join(cell_dir, SCRATCH):
        env["TMPDIR"] = scratch_dir(new_dir)
    old = {f"{k}={quote(os.path.join(cell_dir, OUTPUTS))}": k for k in (HYDRA_RUN_DIR, HYDRA_SWEEP_DIR)}
    argv = [f"{old[a]}={quote(os.path.join(new_dir, OUTPUTS))}" if a in old else a for a in argv]
    return argv, env


def hydra_dirs(argv: list[str], cell_dir: str) -> list[str]:
    """The overrides that put a Hydra app's run and sweep directories in the cell, but for one the
    matrix already sets in `argv` (from `command`, a param or an axis).

    Both, always: a sweep (`-m`, or `hydra.mode` in the app's config) uses the sweep directory, a run
    the run directory, and Hydra records neither among the app's own overrides.
    """
    given = [_bare(a.split("=", 1)[0]) for a in argv if "=" in a]
    out = []
    for key in (HYDRA_RUN_DIR, HYDRA_SWEEP_DIR):
        parents = ("hydra", key.rsplit(".", 1)[0])
        if not any(k == key or k in parents for k in given):
            out.append(f"{key}={quote(os.path.join(cell_dir, OUTPUTS))}")
    return out


def _bare(key: str) -> str:
    return key.lstrip("+~")


def quote(path: str) -> str:
    """A path as a value of Hydra's override grammar: bare where it can be, else single-quoted.

    Inside quotes Hydra keeps a backslash as written unless it comes before a quote or the end;
    `${` would be an interpolation, so it is escaped for OmegaConf.
    """
    if re.fullmatch(r"[A-Za-z0-9_/.+@:-]+", path):
        return path
    text = path.replace("${", "\\${")
    text = re.sub(r"(\\*)('|$)", lambda m: m.group(1) * 2 + ("\\'" if m.group(2) else ""), text)
    return f"'{text}'"


def is_hydra_app(command: tuple) -> bool:
    """Whether the command runs a Python file with a function decorated @hydra.main (read, never run)."""
    from crashmatrix.matrix.program import script_of

    script = script_of(command)
    try:
        return script is not None and _has_hydra_main(script, os.stat(script).st_mtime_ns)
    except OSError:
        return False


@functools.lru_cache(maxsize=32)
def _has_hydra_main(path: str, _mtime: int) -> bool:
    from crashmatrix.app.hydra_main import hydra_main_call

    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return False
    return hydra_main_call(tree) is not None
