"""A JSON training config with a trailing comma: json.load refuses it."""

import json
import os
import tempfile

CONFIG = '{\n  "lr": 0.001,\n  "epochs": 3,\n}\n'


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "train.json")
    with open(path, "w") as f:
        f.write(CONFIG)
    with open(path) as f:
        cfg = json.load(f)
    print(cfg["lr"])
