"""Export in a spawned child process: the child reads the label map the training wrote as labels.json, but the
training opened it for writing and had not flushed it yet, so the child reads an empty file; the main checks the
child's exit code."""

import json
import multiprocessing as mp
import os
import sys
import tempfile


def export(label_path: str) -> None:
    with open(label_path) as f:
        labels = json.load(f)
    print("exporting with", len(labels), "labels", flush=True)


def main() -> None:
    label_path = os.path.join(tempfile.mkdtemp(), "labels.json")
    out = open(label_path, "w")
    out.write(json.dumps({str(i): f"class_{i}" for i in range(10)}))
    child = mp.get_context("spawn").Process(target=export, args=(label_path,))
    child.start()
    child.join()
    out.close()
    if child.exitcode != 0:
        print(f"export child failed with exit code {child.exitcode}", file=sys.stderr)
        sys.exit(1)
