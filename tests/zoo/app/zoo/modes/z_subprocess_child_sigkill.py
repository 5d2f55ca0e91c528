"""The main runs a preprocessing step as a child Python process (subprocess.run(check=True)); the child's own
memory guard sends itself SIGKILL, as a watchdog does, when its working set passes its limit, which the
shard it builds does. The main then raises CalledProcessError for the signal."""

import os
import signal
import subprocess
import sys

LIMIT_MB = 64


def build_shard() -> None:
    table = bytearray(96 * 1024 * 1024)
    used_mb = len(table) // (1024 * 1024)
    if used_mb > LIMIT_MB:
        os.kill(os.getpid(), signal.SIGKILL)
    print(f"shard built with {used_mb} MB")


def main() -> None:
    subprocess.run([sys.executable, os.path.abspath(__file__), "--build-shard"], check=True)
    print("preprocessing done")


if __name__ == "__main__" and "--build-shard" in sys.argv:
    build_shard()
