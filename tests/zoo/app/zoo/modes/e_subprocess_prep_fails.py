"""Data preparation run as a separate Python process with subprocess.run(check=True), as pipelines call their prep
CLIs: the prep script meets "NA" in a numeric column and dies with its own traceback; the parent then raises
CalledProcessError about its exit status 1."""

import csv
import os
import subprocess
import sys
import tempfile


def prep(src: str, dst: str) -> None:
    with open(src, newline="") as f, open(dst, "w") as out:
        for row in csv.DictReader(f):
            out.write(f"{float(row['duration']) / 60.0:.4f},{row['label']}\n")


def write_raw(path: str) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["clip", "duration", "label"])
        for i in range(20):
            w.writerow([f"clip_{i}", "NA" if i == 13 else str(30 + i), i % 3])


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        raw, out = os.path.join(folder, "raw.csv"), os.path.join(folder, "clips.csv")
        write_raw(raw)
        subprocess.run([sys.executable, os.path.abspath(__file__), raw, out], check=True)
        with open(out) as f:
            print(f"{sum(1 for _ in f)} clips prepared")


if __name__ == "__main__":
    prep(sys.argv[1], sys.argv[2])
