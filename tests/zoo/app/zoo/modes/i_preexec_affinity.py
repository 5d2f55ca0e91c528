"""A decoding helper per CPU core: each is started with subprocess.Popen(..., preexec_fn=...) that pins the
child to its core with os.sched_setaffinity before exec. The cores are counted 1..cpu_count instead of
0..cpu_count-1: the last child's pinning names a core that does not exist and fails between fork and exec."""

import os
import subprocess
import sys


def pin_to(core: int):
    def preexec() -> None:
        os.sched_setaffinity(0, {core})

    return preexec


def start_decoders() -> list:
    procs = []
    for core in range(1, os.cpu_count() + 1):
        cmd = [sys.executable, "-c", f"print('decoder on core {core}')"]
        procs.append(subprocess.Popen(cmd, preexec_fn=pin_to(core)))
    return procs


def main() -> None:
    procs = start_decoders()
    for p in procs:
        p.wait()
    print(f"{len(procs)} decoders done")
