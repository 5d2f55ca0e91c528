"""Train the recommender: python scripts/train.py --task NAME [--workers 2 --procs 2], from the project's top."""

import argparse
import os
import sys

sys.path.insert(0, os.getcwd())

from recsys.train import TASKS  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", required=True, choices=sorted(TASKS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--procs", type=int, default=2)
    args = parser.parse_args()
    TASKS[args.task](args)


if __name__ == "__main__":
    main()
