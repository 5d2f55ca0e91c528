"""The training driver prepares its split by running the package's script as a file, `python .../make_split.py
OUT`; the script imports its sibling relatively (`from .common import split_ids`), which only works as a module
(`python -m zoo.im_scripts.make_split`). The child fails: `ImportError: attempted relative import with no known
parent package`; the driver's `subprocess.run(..., check=True)` then raises CalledProcessError."""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "im_scripts" / "make_split.py"


def prepare(out: Path) -> dict:
    subprocess.run([sys.executable, str(SCRIPT), str(out)], check=True)
    return json.loads(out.read_text())


def main() -> None:
    out = Path(tempfile.mkdtemp(prefix="im_split_")) / "split.json"
    print(f"preparing the split in {out}", flush=True)
    split = prepare(out)
    print(f"{len(split['train'])} train, {len(split['val'])} val")
