"""Where envkit reads its data and spills its scratch files."""

import os
import tempfile
from pathlib import Path


def data_root() -> Path:
    return Path(os.environ["ENKIT_DATA_ROOT"])


def scratch_dir(tag: str) -> str:
    return tempfile.mkdtemp(prefix=f"envkit-{tag}-", dir=os.environ.get("TMPDIR"))
