"""`python -m evalkit --task NAME --batch-size 8 --workers 2 [--strict-load]`."""

import argparse

from evalkit import tasks


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="evalkit", description=__doc__)
    p.add_argument("--task", required=True, choices=sorted(tasks.TASKS))
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--strict-load", action="store_true", help="refuse a checkpoint whose keys differ")
    p.add_argument("--out", default="runs/eval")
    return p.parse_args(argv)


def main() -> None:
    args = parse_args()
    print(
        f"evalkit: task={args.task} batch_size={args.batch_size} workers={args.workers} strict_load={args.strict_load}"
    )
    tasks.TASKS[args.task](args)
    print("evalkit: done")


if __name__ == "__main__":
    main()
