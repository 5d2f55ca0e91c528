"""A program ended by a KeyboardInterrupt it did not catch: Python prints the traceback, then ends itself by
SIGINT (3.8+), so the cell is `crash SIGINT`, and its place is where the interrupt was raised.

Run alone first (Python 3.11): each mode prints `Traceback (most recent call last):` down to `KeyboardInterrupt`
and the shell reports exit status 130 (SIGINT):
- raise: the program's own `raise KeyboardInterrupt` in stop_early, line 9 (as a training loop's handler does);
- signal: SIGINT sent to itself in wait_for_data (as Ctrl-C sends it): raised at line 13, the os.kill it was in;
- default: SIGINT with Python's handler taken away (signal.SIG_DFL): the process dies without a word, at line 13.
"""

from conftest import run_rows

APP = """\
import os
import signal
import sys
import time


def stop_early(step):
    if step == 2:
        raise KeyboardInterrupt


def wait_for_data():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)


def main(mode):
    if mode == "default":
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        wait_for_data()
    for step in range(4):
        stop_early(step) if mode == "raise" else wait_for_data()


main(sys.argv[1].split("=")[1])
"""


def test_an_uncaught_keyboard_interrupt_is_a_sigint_crash_placed_where_it_was_raised(tmp_path, write):
    write("app.py", APP)
    matrix = write(
        "m.yaml", "name: k\ncommand: [python, app.py]\ninject: true\naxes:\n  mode: [raise, signal, default]\n"
    )
    rows = {r["mode"]: r for r in run_rows(matrix, tmp_path)}
    assert {(r["outcome"], r["signal"]) for r in rows.values()} == {("crash", "SIGINT")}, rows
    assert rows["raise"]["where"] == "app.py:9 in stop_early", rows["raise"]
    assert rows["raise"]["signature"] == "KeyboardInterrupt in app.py:stop_early"
    assert rows["signal"]["where"] == "app.py:13 in wait_for_data", rows["signal"]
    assert rows["signal"]["signature"] == "KeyboardInterrupt in app.py:wait_for_data"
    assert rows["raise"]["error"] == rows["signal"]["error"] == "KeyboardInterrupt"
    # no traceback: the signal, and the place the in-cell recorder saw it end (inject)
    default = rows["default"]
    assert (default["error"], default["where"]) == ("killed by SIGINT", "app.py:13 in wait_for_data"), default
    assert default["signature"] == "killed_by_signal in app.py:wait_for_data"
