"""`crashmatrix diagnose` on a long log: speed (MB/s) and peak memory, against reading the file once.

Writes a log of SIZE_MB (default 200) of training output with a rank's failure in its middle and torchrun's
report at its end, then measures, each in a fresh process: reading it once (`f.read()`, the floor of any
reader that loads it whole) and `crashmatrix diagnose` of it. Peak RSS from getrusage of the child.

    python bench/bench_diagnose.py [SIZE_MB]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_FAILURE = b"""[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/app/train.py", line 42, in <module>
[rank3]:     main()
[rank3]:   File "/srv/app/train.py", line 30, in main
[rank3]:     loss = step(batch)
[rank3]: ValueError: batch 5123 has no labels
"""


def write_log(path: str, size_mb: int) -> None:
    line = b"[rank0]: 2026-11-29 01:00:00 INFO step 1234 loss 0.4321 lr 0.0001 throughput 812.3 samples/s\n"
    block = line * (1024 * 1024 // len(line))
    with open(path, "wb") as f:
        for i in range(size_mb):
            f.write(block)
            if i == size_mb // 2:
                f.write(_FAILURE)


_MEASURE = (
    "import resource, subprocess, sys, time; t = time.perf_counter(); subprocess.run(sys.argv[1:], check=True, "
    "stdout=subprocess.DEVNULL); print(time.perf_counter() - t, "
    "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)"
)


def measured(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MB) of one child, measured by a parent of its own (the peak is per parent)."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, *argv],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ROOT},
    )
    wall, peak = done.stdout.split()
    return float(wall), float(peak)


def main() -> None:
    size_mb = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "job.log")
        write_log(path, size_mb)
        mb = os.path.getsize(path) / 1e6
        read_wall, read_rss = measured([sys.executable, "-c", f"open({path!r}, 'rb').read()"])
        diag_wall, diag_rss = measured([sys.executable, "-m", "crashmatrix", "diagnose", path, "--json"])
        out = subprocess.run(
            [sys.executable, "-m", "crashmatrix", "diagnose", path],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": ROOT},
        ).stdout
    print(f"log: {mb:.0f} MB")
    print(f"read once:  {read_wall:.2f} s, {mb / read_wall:.0f} MB/s, peak RSS {read_rss:.0f} MB")
    print(f"diagnose:   {diag_wall:.2f} s, {mb / diag_wall:.0f} MB/s, peak RSS {diag_rss:.0f} MB")
    print("verdict:    " + out.splitlines()[0] if out else "verdict: none")


if __name__ == "__main__":
    main()
