"""A recommender's item table as `nn.Embedding(sparse=True)` (the fast path for a big table, switched on by a
flag); the optimizer is the AdamW of the dense model. The first step meets the table's sparse gradient."""

import torch
import torch.nn.functional as F

SPARSE_TABLE = True


class Recommender(torch.nn.Module):
    def __init__(self, items: int, dim: int):
        super().__init__()
        self.items = torch.nn.Embedding(items, dim, sparse=SPARSE_TABLE)
        self.user = torch.nn.Sequential(torch.nn.Linear(12, dim), torch.nn.ReLU(), torch.nn.Linear(dim, dim))

    def forward(self, users: torch.Tensor, items: torch.Tensor) -> torch.Tensor:
        return (self.user(users) * self.items(items)).sum(-1)


def main() -> None:
    torch.manual_seed(0)
    model = Recommender(1000, 16)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(4):
        users, items = torch.randn(32, 12), torch.randint(0, 1000, (32,))
        clicks = torch.randint(0, 2, (32,)).float()
        loss = F.binary_cross_entropy_with_logits(model(users, items), clicks)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {float(loss):.4f}", flush=True)
