"""A per-step watchdog: SIGALRM after `seconds` unless the step ends first; its handler warns in the log."""

import signal
import sys


def _on_alarm(signum, frame) -> None:
    print("watchdog: a step is taking longer than the watchdog allows", file=sys.stderr, flush=True)


def install_handler() -> None:
    signal.signal(signal.SIGALRM, _on_alarm)


def arm(seconds: int) -> None:
    signal.alarm(seconds)


def disarm() -> None:
    signal.alarm(0)
