"""A stall watchdog of the program's own: a daemon thread that, when no step has finished for 2 s, logs and sends
SIGTERM to its own process (no handler installed, so the default action ends it). Step 3 waits on a shard from
slow storage (a 30 s read); the watchdog kills the run mid-read."""

import os
import signal
import sys
import threading
import time

last_progress = time.monotonic()


def watchdog(limit_s: float) -> None:
    while True:
        time.sleep(0.2)
        stalled = time.monotonic() - last_progress
        if stalled > limit_s:
            print(
                f"watchdog: no progress for {stalled:.1f} s (limit {limit_s} s), terminating",
                file=sys.stderr,
                flush=True,
            )
            os.kill(os.getpid(), signal.SIGTERM)
            return


def fetch_shard(step: int) -> bytes:
    time.sleep(30.0 if step == 3 else 0.1)
    return bytes(1024)


def main() -> None:
    global last_progress
    threading.Thread(target=watchdog, args=(2.0,), name="watchdog", daemon=True).start()
    for step in range(6):
        data = fetch_shard(step)
        last_progress = time.monotonic()
        print(f"step {step}: {len(data)} bytes", flush=True)
