"""A recommender with a sparse item table (nn.Embedding(sparse=True), trained with SGD, which takes sparse
gradients) and the dense model's habit of clipping the gradient norm before each step."""

import torch
from torch import nn


def main() -> None:
    torch.manual_seed(0)
    items = nn.Embedding(1000, 16, sparse=True)
    head = nn.Linear(16, 1)
    params = [*items.parameters(), *head.parameters()]
    opt = torch.optim.SGD(params, lr=0.1)
    for step in range(3):
        ids = torch.randint(0, 1000, (32,))
        clicks = torch.randint(0, 2, (32,)).float()
        loss = nn.functional.binary_cross_entropy_with_logits(head(items(ids)).squeeze(-1), clicks)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
