"""A tree walk over a config that refers to itself: Python's RecursionError."""


def depth(node: dict) -> int:
    return 1 + max((depth(child) for child in node["children"]), default=0)


def main() -> None:
    root: dict = {"children": []}
    root["children"].append(root)  # a cycle: the walk never ends
    print(depth(root))
