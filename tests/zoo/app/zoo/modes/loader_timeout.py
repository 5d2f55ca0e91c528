"""DataLoader(timeout=1) with a worker whose read stalls for longer (a slow network filesystem)."""

import time

from torch.utils.data import DataLoader

from zoo.data import Samples, quiet_torch


def fetch_remote(i: int) -> None:
    if i == 2:
        time.sleep(30)


def main() -> None:
    quiet_torch()
    for _batch in DataLoader(Samples(fault=fetch_remote), batch_size=2, num_workers=1, timeout=1):
        pass
