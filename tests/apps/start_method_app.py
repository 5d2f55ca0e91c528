"""A stdlib program for `crashmatrix run -- python start_method_app.py lr=0.1` (tests/test_run_command.py): a
pool of one worker, and a ValueError only under the spawn start method with mode=boom, its own key."""

import multiprocessing as mp
import sys


def square(x: int) -> int:
    return x * x


def main() -> None:
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    with mp.get_context().Pool(1) as pool:
        total = sum(pool.map(square, range(4)))
    print("start method", mp.get_start_method(), "total", total, "lr", args["lr"])
    if args.get("mode") == "boom" and mp.get_start_method() == "spawn":
        raise ValueError(f"bad batch with lr={args['lr']}")


if __name__ == "__main__":
    main()
