"""Sampling the next token from a language model's raw logits: torch.multinomial is given the logits divided by
the temperature, never passed through softmax, so some "probabilities" are negative."""

import torch


def sample(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    scores = logits / temperature
    return torch.multinomial(scores, num_samples=1)


def main() -> None:
    torch.manual_seed(0)
    head = torch.nn.Linear(16, 50)
    hidden = torch.randn(2, 16)
    tokens = [sample(head(hidden).detach(), temperature=0.8) for _ in range(4)]
    print(torch.cat(tokens, dim=1))
