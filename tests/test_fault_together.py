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

Cost: one live cell that imports torch."""

import pytest
from conftest import crashmatrix, rows_of

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

# Reads back how the process handles each fault, the way any C program would (sigaction(2) through ctypes).
MASK_PROGRAM = """\
import ctypes, signal
import torch  # noqa: F401  (a training program imports torch: inject then turns its handler on)

libc = ctypes.CDLL(None)
for fault in (signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE):
    action = ctypes.create_string_buffer(1024)
    assert libc.sigaction(fault, None, action) == 0
    handler = ctypes.c_void_p.from_buffer(action).value
    blocked = libc.sigismember(ctypes.byref(action, ctypes.sizeof(ctypes.c_void_p)), signal.SIGUSR2)
    print(signal.Signals(fault).name, "handled" if handler not in (None, 0, 1) else "default", blocked)
"""


def test_torchs_fault_handlers_block_its_backtrace_request_under_inject(tmp_path):
    (tmp_path / "masks.py").write_text(MASK_PROGRAM)
    (tmp_path / "m.yaml").write_text(
        "name: masks\ncommand: [python, masks.py]\ninject: true\npass_params: none\naxes: {x: [1]}\ntimeout: 60\n"
    )
    done = crashmatrix("run", "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "pass", row
    said = (tmp_path / "run" / row["log_dir"] / "stdout.log").read_text().split("\n")
    assert said[:4] == ["SIGSEGV handled 1", "SIGBUS handled 1", "SIGILL handled 1", "SIGFPE handled 1"], said
