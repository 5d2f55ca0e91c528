"""A bare `assert` (no message) on the batch's shape fails: the loader yields a 3-d batch."""

import torch

from zoo.checks import check_batch


def main() -> None:
    for x in [torch.zeros(4, 8), torch.zeros(4, 8, 1)]:  # the second loader adds a channel axis
        check_batch(x)
