"""Two towers: a user from its id and the bag of its history's items, an item from its id."""

import torch
from torch import nn


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim=8, sparse=False):
        super().__init__()
        self.users = nn.Embedding(n_users, dim, sparse=sparse)
        self.history = nn.EmbeddingBag(n_items, dim, mode="mean", sparse=sparse)
        self.items = nn.Embedding(n_items, dim, sparse=sparse)
        self.proj = nn.Linear(dim, dim)

    def user_vec(self, users, flat, offsets):
        return self.proj(self.users(users) + self.history(flat, offsets))

    def forward(self, users, items, flat, offsets):
        return (self.user_vec(users, flat, offsets) * self.items(items)).sum(-1)


def bpr_loss(pos, neg):
    return -torch.nn.functional.logsigmoid(pos - neg).mean()
