"""A process pool broken by a worker's death by a signal is a worker_crash by that signal (the fifth held-out
set's n_pool_worker_sigkill, tests/zoo/HELDOUT5.md): concurrent.futures says only `BrokenProcessPool`, and a
worker the kernel's OOM killer ends leaves no word of its own.

The truth, from running tests/apps/pool_worker_killed.py alone (its docstring): exit 1, the main's
`future.result()` raises BrokenProcessPool at line 35; the killed worker prints nothing. Under inject the
cell's main process records the status of each child it reaps that died by a signal it did not send itself
(incell/last_exit.py); without inject nothing says so, and the row stays the main's own failure.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

from conftest import ROOT, run_rows

from crashmatrix.verdict import exit_record
from crashmatrix.verdict.exception_place import exception_place

APP = os.path.join(ROOT, "tests", "apps", "pool_worker_killed.py")
BROKEN = (
    "concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly while the "
    "future was running or pending."
)


def test_a_pool_worker_killed_from_outside_is_the_failure_and_the_broken_pool_its_consequence(tmp_path, write):
    rows = {}
    for inject in ("true", "false"):
        matrix = f"name: pool-{inject}\ncommand: [python, {APP}]\ninject: {inject}\naxes:\n  x: [1]\n"
        (tmp_path / inject).mkdir()
        (rows[inject],) = run_rows(write(f"{inject}.yaml", matrix), tmp_path / inject)
    place = r"concurrent/futures/_base\.py:\d+ in __get_result; tests/apps/pool_worker_killed\.py:35 in <genexpr>"
    seen = rows["true"]
    assert (seen["outcome"], seen["signal"]) == ("worker_crash", "SIGKILL"), seen
    assert re.fullmatch(
        rf"a worker process \(pid \d+\) was killed by SIGKILL; the main then said: {re.escape(BROKEN)}", seen["error"]
    )
    assert re.fullmatch(place, seen["where"]), seen["where"]
    assert seen["signature"] == "worker_signal in tests/apps/pool_worker_killed.py:<genexpr>"
    # the other worker, which the pool's own terminate() ended with SIGTERM, is no death to tell
    alone = rows["false"]
    assert (alone["outcome"], alone["signal"], alone["error"]) == ("fail", "", BROKEN), alone
    assert re.fullmatch(place, alone["where"]), alone["where"]


def test_a_worker_that_killed_itself_is_placed_at_its_call_and_one_its_parent_ended_is_not_told(tmp_path):
    cell = tmp_path / "cell"
    cell.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "main.py").write_text(
        "from crashmatrix.incell import last_exit\nlast_exit.install()\n"
        "import multiprocessing as mp, os, signal\n\n"
        "def work():\n    os.kill(os.getpid(), signal.SIGKILL)\n\n"
        "def idle():\n    signal.pause()\n\n"
        "if __name__ == '__main__':\n"
        "    ctx = mp.get_context('fork')\n"
        "    killed, ended = ctx.Process(target=work), ctx.Process(target=idle)\n"
        "    killed.start(); ended.start(); killed.join(); ended.terminate(); ended.join()\n"
        "    print(killed.pid, killed.exitcode, ended.exitcode)\n"
    )
    env = {**os.environ, "PYTHONPATH": ROOT, "CRASHMATRIX_CELL_DIR": str(cell)}
    done = subprocess.run([sys.executable, "main.py"], cwd=tmp_path, env=env, capture_output=True, text=True)
    pid, killed_code, ended_code = map(int, done.stdout.split())
    assert (killed_code, ended_code) == (-signal.SIGKILL, -signal.SIGTERM), done.stderr
    # the self-kill is the child's own record (its call's line); the parent's reaping of it adds nothing new,
    # and the child the parent terminated itself is not there
    assert exit_record.children_killed(str(cell), None) == [(pid, "SIGKILL", "main.py:6 in work")]


def test_a_child_killed_from_outside_is_recorded_under_each_start_method(tmp_path):
    # forkserver's Popen reads its child's status from the fork server, with a poll of its own
    cell = tmp_path / "cell"
    cell.mkdir()
    (tmp_path / "main.py").write_text(
        "from crashmatrix.incell import last_exit\nlast_exit.install()\n"
        "import multiprocessing as mp, os, signal, sys\n\n"
        "if __name__ == '__main__':\n"
        "    child = mp.get_context(sys.argv[1]).Process(target=signal.pause)\n"
        "    child.start(); os.kill(child.pid, signal.SIGKILL); child.join()\n"
        "    print(child.pid, child.exitcode)\n"
    )
    env = {**os.environ, "PYTHONPATH": ROOT, "CRASHMATRIX_CELL_DIR": str(cell)}
    for method in ("fork", "spawn", "forkserver"):
        done = subprocess.run(
            [sys.executable, "main.py", method], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        pid, code = map(int, done.stdout.split())
        assert code == -signal.SIGKILL, done.stderr
        assert (pid, "SIGKILL") in [killed[:2] for killed in exit_record.children_killed(str(cell), None)], method


# A pool worker's exception: the pool pickles it back and the main re-raises it, printing the worker's own
# traceback first (`multiprocessing.pool.RemoteTraceback:` / `concurrent.futures.process._RemoteTraceback:`,
# between triple quotes), then `The above exception was the direct cause`, then its own, which ends in the pool's
# `raise self._value`. Run alone (2026-11-30, Python 3.11.7): `python pools.py kind=pool` printed the worker's
# traceback ending at `pools.py:9 in parse`, then the main's at `pool.py:774 in get`, exit 1; `kind=executor`
# the same through concurrent.futures' `_base.py:401 in __get_result`.
POOLS = """\
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

LINES = ["1", "2", "n/a"]


def parse(line):
    return int(line)


def main():
    kind = dict(a.split("=", 1) for a in sys.argv[1:])["kind"]
    if kind == "pool":
        with get_context("fork").Pool(2) as pool:
            print(sum(pool.map(parse, LINES)))
    else:
        with ProcessPoolExecutor(2, mp_context=get_context("fork")) as pool:
            print(sum(pool.map(parse, LINES)))


if __name__ == "__main__":
    main()
"""


def test_a_pool_workers_exception_is_placed_at_the_workers_line_not_the_pools_re_raise(tmp_path, write):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pools.py").write_text(POOLS)
    matrix = f"name: pools\ncommand: [python, {tmp_path / 'pools.py'}]\naxes:\n  kind: [pool, executor]\n"
    rows = {r["kind"]: r for r in run_rows(write("pools.yaml", matrix), tmp_path)}
    for kind, row in rows.items():
        assert (row["outcome"], row["error"]) == ("fail", "ValueError: invalid literal for int() with base 10: 'n/a'")
        assert row["where"] == "pools.py:9 in parse", (kind, row["where"])
        assert row["signature"] == "ValueError: invalid literal for int() with base N: 'n/a' in pools.py:parse"


# The thirty-fourth held-out set's au_child_wav_write (HELDOUT34.md), run alone: a Pool worker's wave.Error at
# :22 in write_augmented (writeframes before setnchannels), raised again as its `with` block closed at :19, both
# inside the worker's quoted RemoteTraceback; then the main's pool.map at :29. The worker's chain is its own.
WORKER_CHAIN = """\
multiprocessing.pool.RemoteTraceback:\x20
\"\"\"
Traceback (most recent call last):
  File "/app/wav.py", line 22, in write_augmented
    w.writeframes((x * 32767).astype(np.int16).tobytes())
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/wave.py", line 558, in writeframes
    self.writeframesraw(data)
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/wave.py", line 547, in writeframesraw
    self._ensure_header_written(len(data))
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/wave.py", line 583, in _ensure_header_written
    raise Error('# channels not specified')
wave.Error: # channels not specified

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/multiprocessing/pool.py", line 125, in worker
    result = (True, func(*args, **kwds))
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/multiprocessing/pool.py", line 48, in mapstar
    return list(map(*args))
  File "/app/wav.py", line 19, in write_augmented
    with wave.open(path, "wb") as w:
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/wave.py", line 453, in __exit__
    self.close()
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/wave.py", line 565, in close
    self._ensure_header_written(0)
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/wave.py", line 583, in _ensure_header_written
    raise Error('# channels not specified')
wave.Error: # channels not specified
\"\"\"

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/app/main.py", line 21, in <module>
    main()
  File "/app/main.py", line 17, in main
    mode.main()
  File "/app/wav.py", line 29, in main
    paths = pool.map(write_augmented, range(8))
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/multiprocessing/pool.py", line 367, in map
    return self._map_async(func, iterable, mapstar, chunksize).get()
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/multiprocessing/pool.py", line 774, in get
    raise self._value
wave.Error: # channels not specified
"""


def test_a_pool_workers_own_chain_is_placed_at_its_first_raise():
    assert exception_place(WORKER_CHAIN) == "wave.py:583 in _ensure_header_written; wav.py:22 in write_augmented"
