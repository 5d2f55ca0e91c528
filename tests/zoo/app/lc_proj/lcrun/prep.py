"""The program's own preprocessing CLI: `python -m lcrun.prep manifest IN OUT` or `python -m lcrun.prep vocab IN`."""

import argparse
import csv
import signal
import sys
from collections import Counter


def read_manifest(path: str) -> list[dict]:
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f)]


def manifest(src: str, out: str) -> None:
    rows = read_manifest(src)
    with open(out, "w") as f:
        for row in rows:
            f.write(f"{row['audio']}\t{len(row['text'].split())}\n")
    print(f"prep: {len(rows)} utterances", file=sys.stderr)


def vocab(src: str) -> None:
    counts = Counter()
    with open(src) as f:
        for line in f:
            counts.update(line.split())
    print("token\tcount")
    for token, count in counts.most_common():
        print(f"{token}\t{count}")


def main() -> None:
    # quiet under `| head`, as the docs of many CLIs advise
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    parser = argparse.ArgumentParser(prog="lcrun.prep")
    sub = parser.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("manifest")
    m.add_argument("src")
    m.add_argument("out")
    v = sub.add_parser("vocab")
    v.add_argument("src")
    args = parser.parse_args()
    if args.cmd == "manifest":
        manifest(args.src, args.out)
    else:
        vocab(args.src)


if __name__ == "__main__":
    main()
