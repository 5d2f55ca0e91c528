"""The run's scratch folder (the cell's TMPDIR under crashmatrix)."""

import os
import pathlib
import tempfile


def workdir() -> pathlib.Path:
    path = pathlib.Path(tempfile.gettempdir()) / f"jq-proj-{os.getpid()}"
    path.mkdir(parents=True, exist_ok=True)
    return path
