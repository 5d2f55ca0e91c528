"""Two Slurm tasks (srun -n 2): task 1 dies by SIGSEGV in its own function, task 0 waits for it and is then
killed by srun (tests/test_diagnose_formats.py diagnoses the job's output file)."""

import ctypes
import faulthandler
import os
import sys
import time


def read_record(address: int) -> int:
    return ctypes.c_int.from_address(address).value  # NULL: SIGSEGV in this process


def main() -> None:
    faulthandler.enable()
    rank = int(os.environ.get("SLURM_PROCID", "0"))
    print(f"task {rank} started", flush=True)
    if rank == 1:
        time.sleep(0.5)
        read_record(0)
    time.sleep(30)
    sys.exit(0)


if __name__ == "__main__":
    main()
