"""A resource monitor the launcher starts in the background: the process tree's load, one line a second, until it is
stopped."""

import os
import sys
import time


def main() -> None:
    path = sys.argv[1]
    with open(path, "w") as out:
        out.write("time,load1\n")
        while True:
            out.write(f"{time.time():.1f},{os.getloadavg()[0]:.2f}\n")
            out.flush()
            time.sleep(1.0)


if __name__ == "__main__":
    main()
