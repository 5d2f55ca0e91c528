"""A tree walked in a thread whose stack is smaller than the main's, with the recursion limit raised past what
that stack holds: the thread's C stack overflows, SIGSEGV, before Python's limit is met. Alone, with
PYTHONFAULTHANDLER=1, nothing is printed (faulthandler's handler has no stack of its own in that thread)."""

import sys
import threading


def depth(node: list) -> int:
    return 1 + max((depth(child) for child in node), default=0)


def chain(n: int) -> list:
    node: list = []
    for _ in range(n):
        node = [node]
    return node


if __name__ == "__main__":
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 * 1024)
    tree = chain(200_000)
    walker = threading.Thread(target=lambda: print(depth(tree)), name="walker")
    walker.start()
    walker.join()
