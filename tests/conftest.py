import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def crashmatrix(*args, cwd, env=None, timeout=300, input=None):
    """Run the real command line as a user would; returns CompletedProcess with text output."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = ROOT + (os.pathsep + full_env["PYTHONPATH"] if full_env.get("PYTHONPATH") else "")
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "runner", *map(str, args)],
        cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout, input=input,
    )


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


@pytest.fixture
def write(tmp_path):
    def _write(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return _write


# A real one-node Slurm cluster for the executor tests (skips with the reason where impossible).
from slurm_cluster import slurm_cluster  # noqa: E402,F401
