"""A custom op that keeps the positive scores (an output whose length depends on the data) is given a fake
implementation that reads the data to size its output: `int((x > 0).sum())`. Under torch.compile the fake
tensor has no data; the size becomes an unbacked symbol that `int()` cannot specialise, and compile refuses.
"""

import torch


@torch.library.custom_op("tf_select::positive", mutates_args=())
def positive(scores: torch.Tensor) -> torch.Tensor:
    return scores[scores > 0]


@positive.register_fake
def _(scores: torch.Tensor) -> torch.Tensor:
    n = int((scores > 0).sum())
    return scores.new_empty(n)


def select_and_scale(scores: torch.Tensor) -> torch.Tensor:
    return positive(scores) * 2


def main() -> None:
    scores = torch.linspace(-1, 1, 16)
    print("eager:", select_and_scale(scores).shape, flush=True)
    compiled = torch.compile(select_and_scale, fullgraph=True)
    print("compiled:", compiled(scores).shape)
