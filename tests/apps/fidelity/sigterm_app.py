"""SIGTERM as the program finds it, and what it does. `case=default`: SIGTERM at its default, raised at
itself: the process dies by it. `case=ignored`: SIGTERM ignored, then a child and its own child (each a
fresh `exec` of this file) report that they inherited it ignored and survive raising it: an ignored
disposition passes through exec, so nothing in between may have replaced it with a handler."""

import signal
import subprocess
import sys


def survives(depth: int) -> None:
    print(depth, "finds SIGTERM", signal.getsignal(signal.SIGTERM))
    signal.raise_signal(signal.SIGTERM)
    print(depth, "survived SIGTERM")
    if depth < 2:
        sys.stdout.flush()
        subprocess.run([sys.executable, __file__, f"case=child{depth + 1}"], check=True)


if __name__ == "__main__":
    case = sys.argv[1].split("=", 1)[1]
    if case == "default":
        print("finds SIGTERM", signal.getsignal(signal.SIGTERM), flush=True)
        signal.raise_signal(signal.SIGTERM)
        print("not reached")
    elif case == "ignored":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        survives(0)
    else:
        survives(int(case.removeprefix("child")))
