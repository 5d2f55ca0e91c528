"""Predictions streamed line by line, from a writer thread, into an external validator's stdin (a child python that
checks the header and exits 1 at once when it does not match); the thread's next writes go to a pipe nobody reads:
BrokenPipeError in the thread, re-raised by the main's future.result(). The validator's own message is printed
first."""

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import torch

VALIDATOR = """
import sys
header = sys.stdin.readline().strip()
if header != "id,label,score":
    sys.exit(f"validator: bad header {header!r}, expected 'id,label,score'")
for _ in sys.stdin:
    pass
"""


def stream(proc: subprocess.Popen, preds: torch.Tensor) -> int:
    proc.stdin.write("id,score,label\n")
    proc.stdin.flush()
    for i, p in enumerate(preds.tolist()):
        time.sleep(0.01)
        proc.stdin.write(f"{i},{int(p > 0)},{p:.4f}\n")
        proc.stdin.flush()
    proc.stdin.close()
    return proc.wait()


def main() -> None:
    preds = torch.randn(200)
    proc = subprocess.Popen([sys.executable, "-c", VALIDATOR], stdin=subprocess.PIPE, text=True)
    with ThreadPoolExecutor(1, thread_name_prefix="export") as pool:
        fut = pool.submit(stream, proc, preds)
        print("streaming predictions to the validator")
        code = fut.result()
    print(f"validator exit {code}")
