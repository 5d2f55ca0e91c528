"""PyYAML's C loader dies by SIGSEGV on a deeply nested (valid) annotation file.

The polyline exporter writes each contour as a chain: every point holds the rest of the contour in a nested flow
sequence (`[x, y, [x, y, [...]]]`). A long contour nests 120000 levels deep. The pure-Python loader would stop
with a RecursionError; the C loader (`yaml.CSafeLoader`, chosen for speed) recurses in native code until the C
stack runs out.
"""

import faulthandler
import os
import tempfile

import yaml


def export_contour(path: str, points: int) -> None:
    with open(path, "w") as f:
        f.write("contour: ")
        f.write("[1, 2, " * points)
        f.write("[]")
        f.write("]" * points)
        f.write("\n")


def load_annotation(path: str) -> dict:
    with open(path) as f:
        return yaml.load(f, Loader=yaml.CSafeLoader)


def main() -> None:
    faulthandler.enable()
    path = os.path.join(tempfile.mkdtemp(prefix="nl_yaml-"), "page_0001.yaml")
    export_contour(path, points=120000)
    print(f"annotation written: {os.path.getsize(path)} bytes", flush=True)
    ann = load_annotation(path)
    print("loaded", type(ann["contour"]).__name__)
