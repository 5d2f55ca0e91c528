"""The data preparation runs as a child `python` with `PYTHONWARNINGS=error::DeprecationWarning` in its environment
(the team's way to keep deprecated calls out of the prep step); the prep script reads the machine's locale with
`locale.getdefaultlocale()`, deprecated in Python 3.11. The child dies of the DeprecationWarning (exit 1); the
main's `subprocess.run(..., check=True)` raises CalledProcessError."""

import os
import subprocess
import sys
from pathlib import Path

PREP = Path(__file__).resolve().parent.parent / "wn_prep_locale.py"


def main() -> None:
    env = {**os.environ, "PYTHONWARNINGS": "error::DeprecationWarning"}
    print("preparing the corpus in a child", flush=True)
    subprocess.run([sys.executable, str(PREP), "/tmp/wn_corpus.txt"], env=env, check=True)
    print("corpus ready", flush=True)
