"""distkit's entry, run by torchrun: torchrun --nproc_per_node=2 launch/train.py --case NAME [--tokens N]."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from distkit.train import main  # noqa: E402

DEFAULTS = {"loop": "moe", "tokens": 12, "capacity": None, "eval_rows": 8, "samples": 8}
CASES = {
    "dx_a2a_split_sizes": {"loop": "moe", "capacity": 3},
    "dx_gather_into_tensor_rows": {"loop": "eval", "eval_rows": 9},
    "dx_scatter_shard_shapes": {"loop": "scatter", "samples": 7},
    "dx_reduce_scatter_odd_grads": {"loop": "zero"},
}


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--tokens", type=int, default=None)
    args = parser.parse_args()
    cfg = {**DEFAULTS, **CASES[args.case]}
    if args.tokens is not None:
        cfg["tokens"] = args.tokens
    main(cfg)


if __name__ == "__main__":
    cli()
