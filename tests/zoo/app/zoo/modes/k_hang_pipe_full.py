"""subprocess with stdout=PIPE and wait() (the deadlock Python's docs warn of): the child fills the pipe and
blocks writing, the parent waits for it to exit."""

import subprocess
import sys


def main() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdout.write('x' * 1_000_000); sys.stdout.flush()"],
        stdout=subprocess.PIPE,
    )
    child.wait()  # never returns: nobody reads the pipe
    print(child.stdout.read()[:10])
