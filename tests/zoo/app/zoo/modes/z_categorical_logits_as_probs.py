"""A policy samples actions from the head's raw outputs passed as `probs=` (meant as `logits=`);
torch.distributions validates its arguments by default, and the outputs hold negative values."""

import torch
from torch.distributions import Categorical


def act(policy: torch.nn.Module, obs: torch.Tensor) -> torch.Tensor:
    dist = Categorical(probs=policy(obs))
    return dist.sample()


def main() -> None:
    torch.manual_seed(0)
    policy = torch.nn.Linear(4, 3)
    actions = act(policy, torch.randn(8, 4))
    print(actions.tolist())
