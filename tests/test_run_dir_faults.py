"""The run directory's own faults mid-run: a disk that fills up, a directory that stops taking writes.

Real ones: a 400 KB tmpfs mounted as the run directory in a private mount namespace (root and
`unshare -m`), cells that write 100 KB of logs each, so the disk really fills on the fourth.
"""

import json
import os
import subprocess
import sys
from collections import Counter

import pytest
from conftest import ROOT, can_unshare_mounts, crashmatrix, processes_with, rows_of

pytestmark = pytest.mark.slow  # a full disk and an unwritable run directory, for real

# Each cell writes 100 KB to its stdout.log and lives a moment (a real sleep in the child), so with
# --jobs 2 another cell is still running when the disk fills.
MATRIX = """\
name: fill
command: [python, -c, "import sys, time; sys.stdout.write('x' * 100000); sys.stdout.flush(); time.sleep(0.3)"]
axes:
  i: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
timeout: 60
"""

# Runs inside `unshare -m`: the tmpfs exists only there, so the whole story happens in one process.
DRIVER = """\
import json, os, subprocess, sys
sys.path.insert(0, sys.argv[3])
from conftest import processes_with

here, disk = sys.argv[1], sys.argv[2]
run = os.path.join(disk, "run")
env = {**os.environ, "PYTHONPATH": sys.argv[4]}
cm = [sys.executable, "-m", "crashmatrix", "run"]
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", disk], check=True)
first = subprocess.run(cm + ["fill.yaml", "--out", run, "--jobs", "2"], cwd=here, env=env, capture_output=True, text=True)
left = processes_with(f"CRASHMATRIX_RUN_DIR={run}")
with open(os.path.join(run, "results.csv")) as f:
    rows_before = f.read()
still_full = subprocess.run(cm + ["--resume", run], cwd=here, env=env, capture_output=True, text=True)
with open(os.path.join(run, "results.csv")) as f:
    rows_still = f.read()
subprocess.run(["mount", "-o", "remount,size=8m", disk], check=True)  # space freed
second = subprocess.run(cm + ["--resume", run], cwd=here, env=env, capture_output=True, text=True)
with open(os.path.join(run, "results.csv")) as f:
    rows_after = f.read()
with open(os.path.join(here, "story.json"), "w") as f:
    json.dump({"first": [first.returncode, first.stdout, first.stderr], "left": left,
               "before": rows_before, "still_full": [still_full.returncode, still_full.stderr, rows_still],
               "second": [second.returncode, second.stdout, second.stderr],
               "after": rows_after}, f)
"""


@pytest.mark.skipif(not can_unshare_mounts(), reason="a tmpfs as the run directory needs root and unshare -m")
def test_a_disk_that_fills_mid_run_stops_with_one_line_and_resume_completes(tmp_path):
    (tmp_path / "fill.yaml").write_text(MATRIX)
    (tmp_path / "driver.py").write_text(DRIVER)
    (tmp_path / "disk").mkdir()
    tests = os.path.dirname(os.path.abspath(__file__))
    subprocess.run(
        ["unshare", "-m", "--propagation", "private", sys.executable, "driver.py", tmp_path, tmp_path / "disk"]
        + [tests, ROOT],
        cwd=tmp_path,
        check=True,
        timeout=240,
    )
    story = json.loads((tmp_path / "story.json").read_text())
    rc, _out, err = story["first"]
    assert rc == 2, err
    assert "Traceback" not in err
    (line,) = err.splitlines()
    run = os.path.relpath(tmp_path / "disk" / "run", tmp_path)
    assert line.startswith(f"crashmatrix: {run}: ") and "no space left on device" in line
    assert line.endswith(f"crashmatrix run --resume {run}")
    assert story["left"] == []

    # Every row written before the disk filled is kept, whole, and none was a cell cut short by it.
    before = story["before"].splitlines()
    assert 2 <= len(before) - 1 < 12 and story["before"].endswith("\n")
    assert story["after"].startswith(story["before"])
    # A resume before any space is freed says the same, and adds nothing (no cell runs on a full disk).
    rc, err, rows_still = story["still_full"]
    assert rc == 2 and err.splitlines() == [line] and rows_still == story["before"]
    rc, out, err = story["second"]
    assert rc == 0, err
    assert f"{len(before) - 1} already done" in out
    (tmp_path / "after").mkdir()
    (tmp_path / "after" / "results.csv").write_text(story["after"])
    rows = rows_of(tmp_path / "after")
    assert Counter((r["cell_id"], r["repeat"]) for r in rows) == Counter({(r["cell_id"], "0"): 1 for r in rows})
    assert len(rows) == 12 and {r["outcome"] for r in rows} == {"pass"}
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'disk'}") == []


# The cell of i=3 makes the run directory immutable (chattr +i: even root may not write there), as a
# mount gone read-only would; only once (the marker file), so that --resume runs it like any other.
LOCKING_CELL = """\
import os, subprocess, sys, time
time.sleep(0.3)
if sys.argv[1] == "i=3" and os.path.exists("lock-once"):
    os.remove("lock-once")
    run = os.environ["CRASHMATRIX_RUN_DIR"]
    paths = [run, os.path.join(run, "cells"), os.environ["CRASHMATRIX_CELL_DIR"], os.path.join(run, "results.csv")]
    subprocess.run(["chattr", "+i", *paths], check=True)
"""


def _can_make_immutable(tmp_path) -> bool:
    probe = tmp_path / "probe"
    probe.mkdir()
    try:
        return os.geteuid() == 0 and subprocess.run(["chattr", "+i", probe], capture_output=True).returncode == 0
    except OSError:
        return False
    finally:
        subprocess.run(["chattr", "-i", probe], capture_output=True)


def test_a_run_directory_that_stops_taking_writes_stops_the_run_and_resume_completes(tmp_path):
    if not _can_make_immutable(tmp_path):
        pytest.skip("needs root and chattr on a filesystem with the immutable flag")
    (tmp_path / "lock.py").write_text(LOCKING_CELL)
    (tmp_path / "lock-once").write_text("")
    (tmp_path / "m.yaml").write_text(
        "name: lock\ncommand: [python, lock.py]\naxes:\n  i: [0, 1, 2, 3, 4, 5, 6, 7]\ntimeout: 60\n"
    )
    try:
        first = crashmatrix("run", "m.yaml", "--out", "run", "--jobs", "2", cwd=tmp_path)
        left = processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}")
        before = (tmp_path / "run" / "results.csv").read_text()
    finally:
        subprocess.run(["chattr", "-R", "-i", tmp_path / "run"], capture_output=True)  # writable again
    assert first.returncode == 2, first.stderr
    assert first.stderr.splitlines() == [
        "crashmatrix: run: the run directory cannot be written (operation not permitted); the rows written so "
        "far are kept. Make it writable again, then: crashmatrix run --resume run"
    ]
    assert left == []
    assert 2 <= len(before.splitlines()) - 1 < 8

    resumed = crashmatrix("run", "--resume", "run", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    after = (tmp_path / "run" / "results.csv").read_text()
    assert after.startswith(before)
    rows = rows_of(tmp_path / "run")
    assert sorted(int(r["i"]) for r in rows) == list(range(8)) and {r["outcome"] for r in rows} == {"pass"}


# A row that meets the disk's end mid-write: tmpfs really writes the few bytes left in the file's last
# page, then refuses the rest. 16 KiB = 4 pages: results.csv holds one (6 bytes free), a filler the rest.
HALF_ROW = """\
import json, os, subprocess, sys
from crashmatrix.rundir.store import RunDir, RunResult, csv_columns
from crashmatrix.rundir.unwritable import RunDirUnwritable

disk = sys.argv[1]
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", disk], check=True)
store = RunDir(disk)
store.columns = csv_columns([])
with open(store.csv_path, "w") as f:
    header = "cell_id,repeat,outcome"
    f.write(header + "," * (4096 - 6 - len(header) - 1) + "\\n")
try:
    with open(os.path.join(disk, "filler"), "wb") as f:
        f.write(b"f" * 3 * 4096)
except OSError:
    pass
size = os.path.getsize(store.csv_path)
try:
    store.append(RunResult(cell_id="c0ffee", repeat=0, values={}, outcome="pass"))
    said = "appended"
except RunDirUnwritable as e:
    said = str(e)
with open(store.csv_path, "rb") as f:
    data = f.read()
print(json.dumps({"said": said, "before": size, "after": len(data), "last": data[-1:].decode()}))
"""


@pytest.mark.skipif(not can_unshare_mounts(), reason="a tmpfs needs root and unshare -m")
def test_a_row_cut_by_a_full_disk_is_taken_back_whole(tmp_path):
    (tmp_path / "disk").mkdir()
    proc = subprocess.run(
        ["unshare", "-m", "--propagation", "private", sys.executable, "-c", HALF_ROW, tmp_path / "disk"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": ROOT},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    seen = json.loads(proc.stdout)
    assert "no space left on device" in seen["said"] and "--resume" in seen["said"]
    assert seen["after"] == seen["before"] == 4090 and seen["last"] == "\n"  # no half row left behind
