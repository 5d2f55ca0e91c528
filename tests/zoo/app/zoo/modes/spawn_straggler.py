"""torch.multiprocessing.spawn of 2 gloo ranks, mode "straggler" of zoo/ddp.py (rank 1 goes wrong)."""

from zoo.ddp import spawn


def main() -> None:
    spawn("straggler")
