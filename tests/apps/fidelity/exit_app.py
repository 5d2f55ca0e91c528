"""Ways a program ends: `case=os_exit` (os._exit(7): no atexit, nothing flushed that is buffered),
`case=uncaught` (an exception: traceback, status 1), `case=message` (sys.exit with a text: the text on
stderr, status 1), `case=interrupt` (an uncaught KeyboardInterrupt: Python dies by SIGINT)."""

import atexit
import os
import sys


def main(case: str) -> None:
    atexit.register(print, "atexit ran")
    print("case", case)
    buffered = open("exit_app.txt", "w")  # a file's own buffer: os._exit loses it
    buffered.write("written, maybe flushed\n")
    if case == "os_exit":
        sys.stdout.flush()
        os._exit(7)
    if case == "uncaught":
        {}["missing"]
    if case == "message":
        sys.exit("stopped with a message")
    if case == "interrupt":
        raise KeyboardInterrupt


if __name__ == "__main__":
    main(sys.argv[1].split("=", 1)[1])
