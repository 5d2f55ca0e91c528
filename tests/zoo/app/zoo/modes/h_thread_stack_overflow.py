"""A tree walk in a background thread with a small thread stack and a raised recursion limit: the C stack of the
thread overflows (SIGSEGV) on a deep, degenerate tree, before Python's limit is reached."""

import sys
import threading


def depth(node: dict) -> int:
    return 1 + max((depth(child) for child in node["children"]), default=0)


def build(n: int) -> dict:
    node: dict = {"children": []}
    for _ in range(n):
        node = {"children": [node]}  # a degenerate tree: a chain
    return node


def main() -> None:
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 * 1024)
    tree = build(200_000)
    walker = threading.Thread(target=lambda: print(depth(tree)), name="walker")
    walker.start()
    walker.join()
