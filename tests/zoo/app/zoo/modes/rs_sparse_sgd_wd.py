"""Matrix factorisation with sparse user and item tables (nn.Embedding(sparse=True)) and SGD with an L2
penalty given as the optimizer's weight_decay, which SGD applies with a dense add onto the sparse gradient."""

import torch
from torch import nn


class MF(nn.Module):
    def __init__(self, users=200, items=500, dim=16):
        super().__init__()
        self.u = nn.Embedding(users, dim, sparse=True)
        self.i = nn.Embedding(items, dim, sparse=True)

    def forward(self, u, i):
        return (self.u(u) * self.i(i)).sum(-1)


def main() -> None:
    torch.manual_seed(0)
    model = MF()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    for step in range(3):
        u, i = torch.randint(0, 200, (64,)), torch.randint(0, 500, (64,))
        rating = torch.rand(64) * 5
        loss = (model(u, i) - rating).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} mse {loss.item():.3f}", flush=True)
