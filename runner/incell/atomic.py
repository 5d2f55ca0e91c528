"""Files that are whole or absent, never half-written: written beside, then renamed over.

The controller's files and a cell's report alike: the controller never trusts a half-written file.
"""

from __future__ import annotations

import json
import os


def write_text_atomic(path: str, text: str, durable: bool = True) -> None:
    """Replace `path` with `text` in one rename; durable: on the disk, not only in the page cache."""
    folder, name = os.path.split(path)
    # Hidden and per process: a leftover from a killed writer is no file of the run, and two
    # writers never share one.
    tmp = os.path.join(folder, f".{name}.tmp.{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        # A full disk: the half-written file would hold on to the space the user must free.
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def write_json_atomic(path: str, data, durable: bool = True) -> None:
    """`data` as JSON (anything JSON lacks written as its str()), whole or absent."""
    write_text_atomic(path, json.dumps(data, indent=1, default=str), durable=durable)
