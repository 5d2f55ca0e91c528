"""stdout and stderr as the program writes them: print, sys.stdout.write without a newline, raw writes
to the file descriptors, a child process on the same descriptors; then stderr joined to stdout
(dup2), so that the order between the two streams shows in one file."""

import os
import subprocess
import sys

if __name__ == "__main__":
    print("out 1")
    print("err 1", file=sys.stderr)
    sys.stdout.write("out 2 (no newline) ")
    os.write(1, b"out 3 raw\n")
    os.write(2, b"err 2 raw\n")
    subprocess.run(
        [sys.executable, "-c", "import sys; print('child out'); print('child err', file=sys.stderr)"], check=True
    )
    sys.stdout.buffer.write(b"out 4 bytes\n")
    print(
        "line buffering",
        sys.stdout.line_buffering,
        sys.stderr.line_buffering,
        "write_through",
        sys.stdout.write_through,
    )
    os.dup2(1, 2)
    for i in range(3):
        print(f"interleaved out {i}")
        print(f"interleaved err {i}", file=sys.stderr)
        os.write(2, f"interleaved raw err {i}\n".encode())
