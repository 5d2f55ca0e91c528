"""Load the label map from the cache; where the cache is missing, build it from the CSV (the fallback fails: its
finally removes a lock file it never created)."""

import csv
import json
import os
import tempfile

ROOT = tempfile.mkdtemp()
CACHE = os.path.join(ROOT, "labels.json")
CSV = os.path.join(ROOT, "labels.csv")
with open(CSV, "w") as f:
    f.write("name,id\ncat,0\ndog,1\n")


def build_from_csv():
    lock = CACHE + ".lock"
    try:
        with open(CSV) as f:
            table = {r["name"]: int(r["id"]) for r in csv.DictReader(f)}
        with open(CACHE, "w") as f:
            json.dump(table, f)
        return table
    finally:
        os.remove(lock)


def load_labels():
    try:
        with open(CACHE) as f:
            return json.load(f)
    except FileNotFoundError:
        return build_from_csv()


if __name__ == "__main__":
    labels = load_labels()
    print(len(labels), "labels")
