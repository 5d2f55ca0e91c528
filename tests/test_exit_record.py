"""A process that ends itself without a word is placed at the call, and only where that call was its end.

Real processes: each program below runs under the in-cell recorder (incell/last_exit.py, installed as the
cell's main process installs it), then verdict/exit_record.py reads what it left, given the end the process
really met (its exit code, or the signal it died by), as the engine does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest
from conftest import ROOT

from crashmatrix.verdict import exit_record

PRELUDE = "from crashmatrix.incell import last_exit\nlast_exit.install()\n"


def _run(tmp_path, body: str) -> tuple[int, str]:
    """Run body as app/main.py (a root marker beside it) in a cell of tmp_path; (its pid, the place read)."""
    app = tmp_path / "app"
    app.mkdir()
    (app / "pyproject.toml").write_text("")
    (app / "main.py").write_text(PRELUDE + textwrap.dedent(body))
    cell = tmp_path / "cell"
    cell.mkdir()
    env = {**os.environ, "PYTHONPATH": ROOT, "CRASHMATRIX_CELL_DIR": str(cell)}
    proc = subprocess.Popen([sys.executable, str(app / "main.py")], env=env, stderr=subprocess.DEVNULL)
    rc = proc.wait(timeout=60)
    died_by = signal.Signals(-rc).name if rc < 0 else ""
    return proc.pid, exit_record.place(str(cell), proc.pid, rc if rc >= 0 else None, died_by)


def test_sys_exit_is_placed_at_its_call(tmp_path):
    _pid, where = _run(tmp_path, "import sys\n\ndef main():\n    sys.exit(3)\n\nmain()\n")
    assert where == "main.py:6 in main"


def test_a_library_that_exits_is_placed_with_the_programs_line(tmp_path):
    body = "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr', type=float)\n"
    body += "parser.parse_args(['--lr', 'fast'])\n"
    _pid, where = _run(tmp_path, body)
    assert where.startswith("argparse.py:") and where.endswith(" in exit; main.py:7 in <module>"), where


@pytest.mark.parametrize(
    "body, where",
    [
        ("import os\nos._exit(4)\n", "main.py:4 in <module>"),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "main.py:4 in <module>"),
    ],
    ids=["os._exit", "SIGKILL"],
)
def test_an_end_that_runs_no_handler_is_placed_at_its_call(tmp_path, body, where):
    assert _run(tmp_path, body)[1] == where


def test_a_caught_exit_is_not_the_end_the_process_met(tmp_path):
    # sys.exit(3) caught; the program then ends with 5: no place is claimed for the 5
    body = "import sys\ntry:\n    sys.exit(3)\nexcept SystemExit:\n    pass\nraise SystemExit(5)\n"
    assert _run(tmp_path, body)[1] == ""


def test_an_exit_0_leaves_no_record_and_a_forked_child_records_its_own_end(tmp_path):
    # the child (a DataLoader worker, say) ends itself with 7 at line 5 of main.py (after the prelude's 2);
    # the main's exit 0 is no failure to place
    body = "import os, sys\nif os.fork() == 0:\n    os._exit(7)\nos.wait()\nsys.exit(0)\n"
    pid, where = _run(tmp_path, body)
    assert where == ""
    (end,) = exit_record.children_ends(str(tmp_path / "cell"), pid)
    assert end[1:] == (7, "main.py:5 in <module>") and end[0] != pid


def test_multiprocessings_own_exit_that_passes_a_status_on_is_not_the_place(tmp_path):
    # a Process whose target calls sys.exit(2): the child's place is the target's line, not popen_fork's
    # os._exit(2) that ends it with that status afterwards
    body = """\
    import multiprocessing as mp, sys

    def work():
        sys.exit(2)

    if __name__ == "__main__":
        child = mp.get_context("fork").Process(target=work)
        child.start()
        child.join()
        print(child.exitcode)
    """
    pid, _where = _run(tmp_path, body)
    ((_child, code, where),) = exit_record.children_ends(str(tmp_path / "cell"), pid)
    assert (code, where) == (2, "main.py:6 in work")
