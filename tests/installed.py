"""crashmatrix as a user installs it: a wheel built from this checkout, in a fresh venv of its own.

Shared by test_wheel.py, test_ocr_app.py and test_cell_files.py; an editable install of a copy too (test_wheel.py).
"""

import fcntl
import os
import shutil
import subprocess
import sys

from conftest import ROOT


def pyproject_version() -> str:
    """The version pyproject.toml gives, which a wheel built from this checkout carries."""
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        return next(line.split('"')[1] for line in f if line.startswith("version = "))


def fresh_venv(tmp_path) -> str:
    """A venv of the base interpreter, with a .pth pointing at this venv's site-packages.

    Why the .pth: torch, hydra and the rest come from the test's own venv, since installing torch
    takes minutes and the network may be absent. A plain path line appends that folder to sys.path
    without processing its .pth files, so a crashmatrix installed there in editable mode (as `make`
    does) stays out of sight: `runner` can only come from the wheel.
    """
    venv = tmp_path / "venv"
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # Every site folder the test's interpreter reads: its venv may see its dependencies through another
    # interpreter's folders (--system-site-packages, or the .pth `make venv` writes).
    folders = [p for p in sys.path if os.path.basename(p.rstrip(os.sep)) in ("site-packages", "dist-packages")]
    with open(os.path.join(site, "crashmatrix-test-deps.pth"), "w") as f:
        f.write("".join(folder + "\n" for folder in folders))
    return python


def copy_sources(tmp_path):
    """A copy of what pip builds from, under tmp_path/src: pip leaves build/ and *.egg-info in the source
    folder, and an editable install points at it."""
    src = tmp_path / "src"
    src.mkdir(parents=True)
    for name in ("runner", "probes", "hydra_plugins"):
        shutil.copytree(os.path.join(ROOT, name), src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(os.path.join(ROOT, name), src / name)
    return src


def build_wheel(tmp_path) -> str:
    """The wheel of this checkout, built once for the whole session: under pytest-xdist the workers share
    it (the first to ask builds it, under a lock). tmp_path is a test's own; the wheel is read, never changed."""
    base = tmp_path.parent  # the session's base folder, or under xdist this worker's (popen-gwN) in it
    shared = base.parent if base.name.startswith("popen-gw") else base
    dist = shared / "crashmatrix-wheel"
    with open(shared / "crashmatrix-wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not dist.is_dir():
            shutil.rmtree(shared / "crashmatrix-wheel-src", ignore_errors=True)  # what a failed build left
            src = copy_sources(shared / "crashmatrix-wheel-src")
            subprocess.run(
                [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
                + ["-w", str(shared / "crashmatrix-wheel-building"), str(src)],
                check=True,
                capture_output=True,
            )
            os.rename(shared / "crashmatrix-wheel-building", dist)
    (wheel,) = os.listdir(dist)
    return str(dist / wheel)


def install_wheel(tmp_path) -> str:
    """The wheel installed (not editable) into a fresh venv under tmp_path/venv; its python."""
    python = fresh_venv(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "-q", build_wheel(tmp_path)],
        check=True,
        capture_output=True,
    )
    return python


def install_editable(tmp_path) -> str:
    """A copy of the sources installed as the README's `pip install -e` does, into a fresh venv under
    tmp_path/venv; its python."""
    python = fresh_venv(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-build-isolation", "-q"]
        + ["-e", str(copy_sources(tmp_path))],
        check=True,
        capture_output=True,
    )
    return python
