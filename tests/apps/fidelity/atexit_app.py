"""atexit handlers the program registers: run last-registered first, one of them raising (Python
reports it and goes on), one writing a file, one unregistered; the program ends with sys.exit(3)."""

import atexit
import sys


def first():
    print("atexit: first registered, runs last")
    with open("atexit_app.txt", "a") as f:
        f.write("first\n")


def raising():
    print("atexit: raising")
    raise ValueError("an atexit handler fails")


def dropped():
    print("atexit: dropped (never runs)")


def last(word):
    print("atexit: last registered, runs first:", word)
    with open("atexit_app.txt", "a") as f:
        f.write("last\n")


if __name__ == "__main__":
    atexit.register(first)
    atexit.register(raising)
    atexit.register(dropped)
    atexit.register(last, "bye")
    atexit.unregister(dropped)
    print("exiting 3")
    sys.exit(3)
