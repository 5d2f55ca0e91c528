"""A watchdog armed with `signal.alarm` whose handler was never installed: SIGALRM's default action ends the
process, which prints nothing (a shell says `Alarm clock`, status 142).

Run alone: killed by SIGALRM after 1 s, asleep in upload() (alarm_watchdog.py:13), called from main (:18).
"""

import signal
import time


def upload() -> None:
    # a slow remote store
    time.sleep(30)


def main() -> None:
    signal.alarm(1)
    upload()


if __name__ == "__main__":
    main()
