"""A DDP training script as torchrun runs it: `torchrun --nproc_per_node=2 ddp_main.py mode=raise`."""

import os
import sys

from zoo import imports_settled
from zoo.ddp import train


def main() -> None:
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    imports_settled()
    train(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), args["mode"].replace("torchrun_", "", 1))


if __name__ == "__main__":
    main()
