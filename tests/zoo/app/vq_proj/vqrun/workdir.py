"""The run's scratch folder (TMPDIR when a harness gives one, else the system's)."""

import os
import tempfile
from pathlib import Path


def workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="vq_proj-", dir=os.environ.get("TMPDIR")))
