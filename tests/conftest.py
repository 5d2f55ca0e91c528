import atexit
import csv
import functools
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The tests stand in for a person at a terminal, where Ctrl-C reaches the foreground process. Started in
# the background (`make test &`, a CI runner without job control) pytest inherits SIGINT ignored, and so
# would every crashmatrix it starts: it would then ignore SIGINT as such a process should, and the tests
# that press Ctrl-C would see nothing. Their children get SIGINT as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# pytest keeps each test module's assertion-rewritten bytecode in __pycache__ unless writing bytecode is off,
# and the development box turns it off (PYTHONDONTWRITEBYTECODE): every xdist worker then parsed and rewrote
# all 120 test modules again, about 5 CPU-s each. The test modules are imported after this conftest, so only
# this process's own imports are cached; the programs the tests start still inherit the variable.
sys.dont_write_bytecode = False

# Interpreters' kept answers (facts_cache, collect_env's) live in this session's own folder: a user's cache is
# neither read nor filled by the tests, and the session's runs still share what they learn. pytest-xdist's
# workers inherit the controller's, which made it before starting them and removes it when it ends: an
# interpreter is asked (a torch import, collect_env's seconds) once a session, not once in each worker.
_CACHE_PREFIX = "crashmatrix-test-cache-"
_inherited = os.environ.get("XDG_CACHE_HOME", "")
if not (
    os.environ.get("PYTEST_XDIST_WORKER")
    and os.path.basename(_inherited).startswith(_CACHE_PREFIX)
    and os.path.isdir(_inherited)
):
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix=_CACHE_PREFIX)
    atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)  # the process that made it removes it


def crashmatrix(*args, cwd, env=None, timeout=300, input=None):
    """Run the real command line as a user would; returns CompletedProcess with text output."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = ROOT + (os.pathsep + full_env["PYTHONPATH"] if full_env.get("PYTHONPATH") else "")
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "crashmatrix", *map(str, args)],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        input=input,
    )


def rows_of(run_dir) -> list[dict]:
    """The rows of a run's results.csv, as a user's csv.DictReader reads them (every value a string)."""
    with open(os.path.join(run_dir, "results.csv"), newline="") as f:
        return list(csv.DictReader(f))


def run_rows(matrix, tmp_path, *args, **kwargs) -> list[dict]:
    """`crashmatrix run MATRIX --out tmp_path/run ARGS...`, which must succeed; the rows it wrote."""
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", *args, cwd=tmp_path, **kwargs)
    assert proc.returncode == 0, proc.stderr
    return rows_of(tmp_path / "run")


def one_injected_cell(tmp_path, name: str, program: str, timeout: int = 60) -> tuple[dict, str]:
    """Run `program` (written as NAME.py) as the one cell of a matrix with inject on: its row and its cell folder."""
    (tmp_path / f"{name}.py").write_text(program)
    (tmp_path / "m.yaml").write_text(
        f"name: {name}\ncommand: [python, {name}.py]\ninject: true\npass_params: none\naxes: {{x: [1]}}\n"
        f"timeout: {timeout}\n"
    )
    (row,) = run_rows("m.yaml", tmp_path)
    return row, os.path.join(tmp_path, "run", row["log_dir"])


def only_cell_stdout(run_dir) -> str:
    """stdout.log of the one cell of a run."""
    (cell,) = os.listdir(os.path.join(run_dir, "cells"))
    with open(os.path.join(run_dir, "cells", cell, "stdout.log")) as f:
        return f.read()


@functools.cache
def can_unshare_mounts() -> bool:
    """Whether a cell can have a private /dev/shm here (shm_mb): root, and `unshare -m` allowed."""
    if os.geteuid() != 0:
        return False
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


@functools.cache
def has_cuda() -> bool:
    """Whether torch sees a CUDA GPU here, asked of a child: the suite's own processes never import torch."""
    if not os.path.exists("/dev/nvidiactl"):  # no NVIDIA driver: spare every CPU box a torch import
        return False
    probe = [sys.executable, "-c", "import torch; print(torch.cuda.is_available())"]
    return subprocess.run(probe, capture_output=True, text=True).stdout.strip() == "True"


def processes_with(needle: str) -> list[str]:
    """Live (non-zombie) processes whose environment holds needle: what a run must not leave behind."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
            with open(f"/proc/{name}/environ", "rb") as f:
                if needle.encode() in f.read():
                    with open(f"/proc/{name}/cmdline", "rb") as c:
                        cmd = c.read().replace(b"\0", b" ").decode(errors="replace")
                    found.append(f"{name}: {cmd}")
        except (OSError, IndexError):
            continue
    return found


def lines_from(fd: int, n: int, within: float) -> list[str]:
    """The first n lines written to the pipe or FIFO read end fd (opened O_NONBLOCK), waiting on the pipe
    itself (select) for at most `within` seconds: fewer when they did not come."""
    got = b""
    end = time.monotonic() + within
    while got.count(b"\n") < n:
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        chunk = os.read(fd, 4096)
        if not chunk:  # every writer closed: nothing more can come
            break
        got += chunk
    return got.decode().splitlines()[:n]


@pytest.fixture
def write(tmp_path):
    def _write(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return _write


# Real Slurm clusters for the executor tests, one node and two (skip with the reason where impossible).
from slurm_cluster import slurm_cluster, slurm_cluster2  # noqa: E402,F401
