"""The training log is piped through a filter child (`head -n 5`, to keep only the start of a long log), and the
program restores SIGPIPE's default action so that `python train.py | head` ends quietly instead of with a
BrokenPipeError. Once head has printed its 5 lines and exited, the next write to its pipe kills the trainer."""

import signal
import subprocess
import time


class LogPipe:
    def __init__(self, lines: int):
        self.child = subprocess.Popen(["head", "-n", str(lines)], stdin=subprocess.PIPE, text=True)

    def log(self, line: str) -> None:
        self.child.stdin.write(line + "\n")
        self.child.stdin.flush()


def main() -> None:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    pipe = LogPipe(5)
    loss = 2.0
    for step in range(200):
        loss *= 0.97
        pipe.log(f"step {step} loss {loss:.4f}")
        time.sleep(0.02)
    pipe.child.stdin.close()
    pipe.child.wait()
    print("training done")
