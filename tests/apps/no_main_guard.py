"""No main guard: under spawn or forkserver the child re-imports this file and refuses to start another
process (tests/test_diagnose.py: diagnose proposes the start-method matrix that finds it)."""

import multiprocessing as mp
import sys


def work():
    print("child works")


p = mp.Process(target=work)
p.start()
p.join()
sys.exit(1 if p.exitcode else 0)
