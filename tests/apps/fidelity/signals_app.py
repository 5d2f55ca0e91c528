"""Signal handlers the program installs itself: SIGUSR1 (prints), SIGINT (Python's default:
KeyboardInterrupt, caught), SIGTERM (prints, then exits 5). It first prints every signal's
disposition and its blocked mask as it finds them: nothing must be installed, ignored or blocked
behind its back."""

import signal
import sys


def disposition(handler) -> str:
    if handler is signal.default_int_handler:
        return "python-default"
    return str(handler)


def on_usr1(signum, frame):
    print("handled", signal.Signals(signum).name, "in", frame.f_code.co_name)


def on_term(signum, frame):
    print("handled", signal.Signals(signum).name, "- exiting 5")
    sys.exit(5)


if __name__ == "__main__":
    for number in sorted(signal.valid_signals()):
        print(int(number), disposition(signal.getsignal(number)))
    print("blocked", sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])))
    signal.signal(signal.SIGUSR1, on_usr1)
    signal.signal(signal.SIGTERM, on_term)
    # raise_signal runs the handler before it returns
    signal.raise_signal(signal.SIGUSR1)
    try:
        signal.raise_signal(signal.SIGINT)
    except KeyboardInterrupt:
        print("KeyboardInterrupt caught")
    signal.raise_signal(signal.SIGTERM)
    print("not reached")
