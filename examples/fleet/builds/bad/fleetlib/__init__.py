"""fleetlib 0.0.1: an older build, on one node only; it kills the process that calls it (examples/fleet/README.md)."""

import os
import signal

__version__ = "0.0.1"


def checksum():
    os.kill(os.getpid(), signal.SIGBUS)


def load(num_workers):
    if num_workers == 2:
        os.kill(os.getpid(), signal.SIGSEGV)
    return list(range(num_workers))
