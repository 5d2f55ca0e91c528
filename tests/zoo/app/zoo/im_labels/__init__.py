"""The label set, read once when the package is imported (from the folder the author always ran from)."""

import json
from pathlib import Path

LABELS = json.loads(Path("data/layout_labels.json").read_text())
INDEX = {name: i for i, name in enumerate(LABELS)}
