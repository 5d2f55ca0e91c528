"""Writes the train/validation split as JSON: `python make_split.py OUT.json` (or so its author ran it, with -m)."""

import json
import sys

from .common import split_ids

if __name__ == "__main__":
    train, val = split_ids(100)
    with open(sys.argv[1], "w") as f:
        json.dump({"train": train, "val": val}, f)
