"""A process its own faulthandler watchdog ends (`faulthandler.dump_traceback_later(timeout, exit=True)`) prints
`Timeout (0:00:01)!` and every thread's stack, then exits with status 1: no traceback, no exception. The row
says so and places it where the watchdog found the main thread waiting; under torchrun the rank it ended is the
one (the twenty-first held-out set's i_ddp_rank1_faulthandler_exit, judged from its recorded logs in
tests/zoo/test_heldout21.py).

Run alone first (2026-11-30, Python 3.11.7): `python wait.py` printed `Timeout (0:00:01)!` and the main thread's
stack, innermost threading.py's wait under queue.py's get, from wait.py:8 in fetch, and exited with status 1
after 1.0 s. Before this rule the row said `fail` with `error` the dump's last frame line and no place.

Cost: two live cells of a stdlib program (no torch)."""

import pytest
from conftest import crashmatrix, rows_of

pytestmark = pytest.mark.slow  # live cells, a second's wait each

PROGRAM = """\
import faulthandler
import queue


def fetch(results):
    faulthandler.dump_traceback_later(1, exit=True)  # the program's watchdog: a batch must come within 1 s
    # nothing ever puts a result: the watchdog ends the process
    return results.get()


def main():
    print(fetch(queue.Queue()))


if __name__ == "__main__":
    main()
"""


def test_a_process_its_watchdog_ended_is_told_by_the_dump_and_placed_where_it_waited(tmp_path):
    (tmp_path / "wait.py").write_text(PROGRAM)
    rows = []
    for inject in ("true", "false"):
        (tmp_path / f"{inject}.yaml").write_text(
            f"name: wait\ncommand: [python, wait.py]\npass_params: none\ninject: {inject}\naxes: {{x: [1]}}\ntimeout: 30\n"
        )
        done = crashmatrix("run", f"{inject}.yaml", "--out", tmp_path / inject, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        rows += rows_of(tmp_path / inject)
    for row in rows:
        assert (row["outcome"], row["exit_code"]) == ("fail", "1"), row
        assert row["error"] == (
            "Timeout (0:00:01)! (faulthandler's watchdog, dump_traceback_later, ended the process)"
        ), row["error"]
        assert row["signature"] == "faulthandler_timeout in wait.py:fetch", row
        assert row["where"].startswith("threading.py:") and row["where"].endswith("; wait.py:8 in fetch"), row
