"""A backbone run under autocast and attention-pooling heads run side by side in a thread pool."""

from concurrent.futures import ThreadPoolExecutor

import torch


class Model(torch.nn.Module):
    def __init__(self, dim: int = 16, width: int = 32, heads: int = 2) -> None:
        super().__init__()
        self.backbone = torch.nn.Linear(dim, width)
        self.queries = torch.nn.ParameterList(torch.nn.Parameter(torch.randn(width, 1)) for _ in range(heads))
        self.pool = ThreadPoolExecutor(max_workers=heads, thread_name_prefix="head")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        feats = self.backbone(x)
        futures = [self.pool.submit(pool_head, feats, q) for q in self.queries]
        return torch.cat([f.result() for f in futures], dim=1)


def pool_head(feats: torch.Tensor, query: torch.Tensor) -> torch.Tensor:
    scores = torch.bmm(feats, query.expand(feats.shape[0], -1, -1)).softmax(dim=1)
    return (scores * feats).sum(dim=1)
