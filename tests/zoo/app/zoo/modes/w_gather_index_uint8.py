"""A DQN update: the replay buffer stores actions as numpy uint8 to save memory; Q(s, a) is read with
q.gather(1, actions) on the tensor made from them."""

import numpy as np
import torch
from torch import nn


def sample_batch(rng: np.random.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
    states = rng.standard_normal((n, 6)).astype(np.float32)
    actions = rng.integers(0, 4, size=n).astype(np.uint8)
    return torch.from_numpy(states), torch.from_numpy(actions)


def main() -> None:
    rng = np.random.default_rng(0)
    net = nn.Linear(6, 4)
    states, actions = sample_batch(rng, 32)
    q_taken = net(states).gather(1, actions.unsqueeze(-1)).squeeze(-1)
    print(f"mean Q {q_taken.mean().item():.3f}")
