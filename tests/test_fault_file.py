"""A program that sends faulthandler's dumps to a file of its own (`faulthandler.enable(file=log)`), as the
hundred-and-second held-out set's DataLoader worker and torchrun rank did: the dump stays in the program's file, as
alone, and under inject the row's place is read from it (incell/stackdump.py notes the file, forensics reads what it
gained during the run).

Run alone (python 3.11, torch 2.13): `crash.log` ends with `Fatal Python error: Segmentation fault` and the stack
`read_record` (:14) <- `main` (:18); stderr has none of it; the process dies by SIGSEGV (status -11). What the file
held before the run (an older crash's dump, at `old_function`) is left as it was.
"""

import pytest
from conftest import one_injected_cell

OLD_DUMP = (
    "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f0000000000 (most recent call first):\n"
    '  File "/elsewhere/old.py", line 99 in old_function\n'
)
PROGRAM = """\
import ctypes
import faulthandler
import os

log = open(os.path.join(os.getcwd(), "crash.log"), "a")
faulthandler.enable(file=log, all_threads=True)
{after_enable}


def read_record():
    # the program's own native read of a bad address
    addr = 8
    print("reading", flush=True)
    return ctypes.string_at(addr, 16)


def main():
    read_record()


main()
"""


def _crash(tmp_path, after_enable: str) -> tuple[dict, str, str]:
    (tmp_path / "crash.log").write_text(OLD_DUMP)
    row, cell = one_injected_cell(tmp_path, "prog", PROGRAM.format(after_enable=after_enable))
    with open(f"{cell}/stderr.log", encoding="utf-8") as f:
        return row, (tmp_path / "crash.log").read_text(), f.read()


def test_a_dump_the_program_sends_to_its_own_file_stays_there_and_places_the_crash(tmp_path):
    row, kept, stderr = _crash(tmp_path, "")
    assert (row["outcome"], row["signal"]) == ("crash", "SIGSEGV"), row
    assert row["where"].endswith("prog.py:14 in read_record"), row["where"]
    assert row["signature"] == "killed_by_signal in prog.py:read_record", row
    assert kept.startswith(OLD_DUMP) and "line 14 in read_record" in kept[len(OLD_DUMP) :]  # where alone puts it
    assert "read_record" not in stderr


@pytest.mark.slow  # imports torch, which turns faulthandler off and on around its own handler under inject
def test_torchs_import_after_the_programs_call_leaves_its_dumps_in_its_file(tmp_path):
    row, kept, stderr = _crash(tmp_path, "import torch  # noqa: F401")
    assert (row["outcome"], row["signal"]) == ("crash", "SIGSEGV"), row
    assert row["where"].endswith("prog.py:14 in read_record"), row["where"]
    assert "line 14 in read_record" in kept[len(OLD_DUMP) :]
    assert "Fatal Python error" not in stderr  # torch's native backtrace may be there; faulthandler's dump is not
