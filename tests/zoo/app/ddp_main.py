"""A DDP training script as torchrun runs it: `torchrun --nproc_per_node=2 ddp_main.py mode=raise`."""

import os
import sys

from zoo import imports_settled
from zoo.ddp import train

LATER = "cxexevrlhfoxvihpautsrsftmxgnqzdtsqdxclgmlthyfncprxaclgmpivopsmsgmdnpcfiornpfasdlwnimspenpkhdhkrvdvdc"  # pairs
LATER2 = "nuwbjsshmmsdnceltffsrpgcdsthlkhrxtegomnlmckxlcqebqzrvqjqyw"  # pairs, after LATER filled its line
PAIRS = [*map("".join, zip(*[iter(LATER + LATER2)] * 2))]
HELDOUT_PREFIXES = tuple(f"{p}_" for p in [*"hkmnpstuvwxyzbdefgijlao", *PAIRS])


def main() -> None:
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    imports_settled()
    entry = heldout if args["mode"].startswith(HELDOUT_PREFIXES) else train
    entry(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), args["mode"].replace("torchrun_", "", 1))


def heldout(rank: int, world_size: int, mode: str) -> None:
    """The held-out DDP modes (tests/zoo/truth_heldout2.yaml): zoo/modes/<mode>.py's run(rank, world_size)."""
    import importlib

    importlib.import_module(f"zoo.modes.{mode}").run(rank, world_size)


if __name__ == "__main__":
    main()
