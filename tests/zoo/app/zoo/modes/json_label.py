"""A label file with a truncated record: json raises while the program parses it (a library's exception)."""

import json

LABELS = ['{"id": 1, "label": "cat"}', '{"id": 2, "label": "dog"']  # the second record was cut short


def parse_label(record: str) -> str:
    return json.loads(record)["label"]


def main() -> None:
    print([parse_label(r) for r in LABELS])
