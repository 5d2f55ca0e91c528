"""asynckit's entry: `python train.py --case NAME` (tests/zoo/HELDOUT64.md)."""

import argparse
import asyncio

from asynckit import train

CASES = {
    "as_prefetch_after_shutdown": lambda: train.fit_prefetch(),
    "as_executor_shard_not_gzip": lambda: train.fit_executor_shards(),
    "as_run_inside_loop": lambda: asyncio.run(train.fit_async()),
    "as_worker_event_other_loop": lambda: train.fit_remote(),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    CASES[args.case]()


if __name__ == "__main__":
    main()
