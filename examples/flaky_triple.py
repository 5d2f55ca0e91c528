"""Issue 16's case: a program that segfaults half the time, and only where a=1, c=2 and f=0 all hold.

Nothing else about its arguments matters. crashmatrix passes each axis as key=value:
    crashmatrix hunt examples/flaky_triple.yaml
"""

import os
import random
import signal
import sys

args = dict(arg.split("=", 1) for arg in sys.argv[1:])
if args["a"] == "1" and args["c"] == "2" and args["f"] == "0" and random.random() < 0.5:
    os.kill(os.getpid(), signal.SIGSEGV)
