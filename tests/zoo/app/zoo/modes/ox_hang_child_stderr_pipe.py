"""A preprocessing child started with `Popen(stdout=PIPE, stderr=PIPE)`; the main waits with `proc.wait()`
before reading the pipes. The child draws a tqdm progress bar on its stderr for 20000 shards; the bar's
redraws fill the 64 KiB pipe, the child blocks writing, the main waits for ever (the deadlock Python's docs
warn of for wait() with PIPE)."""

import subprocess
import sys

CHILD = r"""
import sys
from tqdm import tqdm
for i in tqdm(range(20000), desc="tokenizing shards", file=sys.stderr, mininterval=0, miniters=1, ncols=90):
    pass
print("done")
"""


def main() -> None:
    print("preprocessing in a child ...", flush=True)
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    rc = proc.wait()
    out, err = proc.communicate()
    print(f"child exited {rc}: {out.decode().strip()}", flush=True)
