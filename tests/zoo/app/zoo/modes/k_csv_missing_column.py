"""A labels CSV exported without its `label` column: the program's row reader fails on the missing key."""

import csv
import io

EXPORT = "path,split\nimg0.png,train\nimg1.png,train\n"


def read_labels(text: str) -> list:
    return [int(row["label"]) for row in csv.DictReader(io.StringIO(text))]


def main() -> None:
    print(read_labels(EXPORT))
