"""Threads that fault together under inject die by the fault, as alone, instead of waiting in torch's handler.

crashmatrix turns torch's fatal-signal handler on in every cell (its native backtrace names the library a crash
died in). That handler asks every other thread for its backtrace by SIGUSR2, under a lock of its own, and lets a
second faulting thread in when two fault at the same instant. Then one of them, holding the lock, was asked for
its backtrace, waited on the lock it held, and the process never ended.

Run alone first (2026-12-01, glibc 2.36, torch 2.13.0+cpu, a private 1 MB /dev/shm under `unshare -m`): a program
that maps a 64 MB file on /dev/shm and fills it with torch.fill_ on 4 OpenMP threads (FAULT_PROGRAM below) died by
SIGBUS in 39 of 40 runs and by SIGSEGV in 1 (`-X faulthandler`, as every cell has it), never hung. With torch's
handler turned on as inject turns it on, 2 of 30 runs hung until killed (the threads' stacks: two in torch's
fatalSignalHandler, one waiting in pthread_cond_timedwait); under `crashmatrix run` with inject, 1 of 18 cells
timed out. With SIGUSR2 blocked inside torch's fault handlers (runner/incell/stackdump.py), 0 of 140 runs hung,
all died by SIGBUS. The hang is a race, so a live run cannot show its absence; the test holds the mechanism: in
a cell under inject, each fault's handler (torch's) blocks SIGUSR2.

The same program's Python frame (faulthandler's dump) was cut short under inject: torch's handler came first and
returned at once to every thread but its leader, which faulted again and again until the leader handed the fault
to faulthandler, whose first act is to reset the signal to its default action: the next fault killed the process
as faulthandler wrote. The program's frame was printed in 37 of 48 cells (a matrix with `shm_mb: 1`), where alone
20 of 20 runs print it. With faulthandler's handler first and torch's beneath it (2026-12-01): 36 of 36. The test
holds that order, and `where` read through it.

Cost: two live cells that import torch."""

import os
import re

import pytest
from conftest import one_injected_cell

pytestmark = pytest.mark.slow  # a live cell that imports torch

# Kept to rerun the measurement above: `unshare -m sh -c 'mount -t tmpfs -o size=1m tmpfs /dev/shm; python
# -X faulthandler fault.py'` (alone), or a matrix with `shm_mb: 1` and `inject: true`.
FAULT_PROGRAM = """\
import mmap, os
import torch
torch.set_num_threads(4)
fd = os.open("/dev/shm/big.bin", os.O_RDWR | os.O_CREAT | os.O_TRUNC)
os.ftruncate(fd, 64 << 20)
t = torch.frombuffer(mmap.mmap(fd, 64 << 20), dtype=torch.float32)
t.fill_(1.0)  # every OpenMP thread writes pages the full /dev/shm cannot back: SIGBUS in each
"""

# Reads back how the process handles each fault, the way any C program would (sigaction(2) through ctypes): the
# handler on top, then the one it hands the fault to once faulthandler puts back what it replaced.
MASK_PROGRAM = """\
import ctypes, faulthandler, signal
import torch  # noqa: F401  (a training program imports torch: inject then turns its handler on)

libc = ctypes.CDLL(None)
FAULTS = (signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE)


def action_of(fault):
    action = ctypes.create_string_buffer(1024)
    assert libc.sigaction(fault, None, action) == 0
    handler = ctypes.c_void_p.from_buffer(action).value
    return handler, libc.sigismember(ctypes.byref(action, ctypes.sizeof(ctypes.c_void_p)), signal.SIGUSR2)


first = {fault: action_of(fault) for fault in FAULTS}
faulthandler.disable()
for fault in FAULTS:
    (top, _), (beneath, blocked) = first[fault], action_of(fault)
    handled = "handled" if beneath not in (None, 0, 1) and top != beneath else "alone"
    print(signal.Signals(fault).name, handled, blocked)
"""


def test_faulthandler_comes_first_and_torchs_handler_beneath_blocks_its_backtrace_request(tmp_path):
    row, cell = one_injected_cell(tmp_path, "masks", MASK_PROGRAM)
    assert row["outcome"] == "pass", row
    said = open(os.path.join(cell, "stdout.log")).read().split("\n")
    assert said[:4] == ["SIGSEGV handled 1", "SIGBUS handled 1", "SIGILL handled 1", "SIGFPE handled 1"], said


SEGV_PROGRAM = """\
import ctypes
import torch  # noqa: F401


def read_header():
    return ctypes.string_at(0)


read_header()
"""


def test_a_fault_is_dumped_by_faulthandler_then_torch_and_placed_through_both(tmp_path):
    row, cell = one_injected_cell(tmp_path, "segv", SEGV_PROGRAM)
    stderr = open(os.path.join(cell, "stderr.log")).read()
    assert 0 <= stderr.find("Fatal Python error: Segmentation fault") < stderr.find("SIGSEGV(11), PID: "), stderr
    # the faulting frame is libc's read at address 0, past torch's handler, faulthandler's and both trampolines
    assert (row["outcome"], row["signal"]) == ("crash", "SIGSEGV"), row
    assert row["where"].startswith("libc.so.6 (+0x") and row["where"].endswith("; segv.py:6 in read_header"), row
    # not the frame right after the first trampoline: that is libc's raise, faulthandler handing the fault on
    frames = re.findall(r"^frame #\d+: (.*?) \(0x[0-9a-f]+ in (.+?)\)$", stderr, re.M)
    handler = max(k for k, (desc, _lib) in enumerate(frames[:8]) if "fatalSignalHandler" in desc)
    raised = frames[handler + 2][0].rpartition(" + ")[2]
    assert f"+{raised})" not in row["where"], (raised, row["where"])
