"""Per-class prototype tensors exported to `exports/<label>.pt`; labels are passed through the program's own
file-name sanitizer, which keeps ASCII letters, digits, `_` and `-` only, so a label written in another
script (here Japanese) becomes the empty string and the path is the export folder itself."""

import os
import re
import tempfile

import torch

LABELS = ["cat", "dog", "ねこ", "bird"]


def sanitize(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "", label)


def main() -> None:
    out = os.path.join(tempfile.mkdtemp(prefix="io-exports-"), "exports")
    os.makedirs(out)
    torch.manual_seed(0)
    for label in LABELS:
        path = os.path.join(out, sanitize(label))
        with open(path, "wb") as f:
            torch.save(torch.randn(16), f)
        print(f"exported {label} to {path}", flush=True)
