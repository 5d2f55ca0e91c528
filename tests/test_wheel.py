"""A wheel carries everything a run needs: installed (not editable) into a fresh venv, crashmatrix
runs an `inject: true` cell from a directory outside the repository, and the cell sees its knobs."""

import json
import os
import shutil
import subprocess
import sys
import sysconfig

from conftest import ROOT


def _fresh_venv(tmp_path) -> str:
    """A venv of the base interpreter, with a .pth pointing at this venv's site-packages.

    Why the .pth: torch, hydra and the rest come from the test's own venv, since installing torch
    takes minutes and the network may be absent. A plain path line appends that folder to sys.path
    without processing its .pth files, so a crashmatrix installed there in editable mode (as `make`
    does) stays out of sight: `runner` can only come from the wheel.
    """
    venv = tmp_path / "venv"
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    with open(os.path.join(site, "crashmatrix-test-deps.pth"), "w") as f:
        f.write(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _wheel(tmp_path) -> str:
    # Built from a copy of the worktree's sources: pip leaves build/ and *.egg-info in the source folder.
    src = tmp_path / "src"
    src.mkdir()
    for name in ("runner", "probes"):
        shutil.copytree(os.path.join(ROOT, name), src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(os.path.join(ROOT, name), src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path / "dist"), str(src)], check=True, capture_output=True)
    (wheel,) = os.listdir(tmp_path / "dist")
    return str(tmp_path / "dist" / wheel)


def test_the_wheel_installed_in_a_fresh_venv_runs_an_inject_cell(tmp_path):
    python = _fresh_venv(tmp_path)
    subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "-q", _wheel(tmp_path)],
                   check=True, capture_output=True)
    where = subprocess.run([python, "-c", "import runner; print(runner.__file__)"], cwd=tmp_path,
                           check=True, capture_output=True, text=True).stdout
    assert where.startswith(str(tmp_path / "venv")), where
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "train.py").write_text("import json, multiprocessing as mp, resource, sys\n"
                                   "print(json.dumps([sys.argv[1:], mp.get_start_method(),"
                                   " resource.getrlimit(resource.RLIMIT_NOFILE)[0]]))\n")
    (work / "m.yaml").write_text("name: wheel\ncommand: [python, train.py]\ninject: true\n"
                                 "axes:\n  start_method: [spawn]\n  rlimit.nofile: [250]\n  lr: [0.5]\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = subprocess.run([str(tmp_path / "venv" / "bin" / "crashmatrix"), "run", "m.yaml", "--out", "run"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    (cell,) = os.listdir(work / "run" / "cells")
    assert json.loads((work / "run" / "cells" / cell / "stdout.log").read_text()) == [["lr=0.5"], "spawn", 250]
