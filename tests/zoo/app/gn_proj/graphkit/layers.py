"""Message passing over an edge list (index_select, then index_add_ or scatter_reduce), and GCN over a
sparse adjacency."""

import torch
from torch import nn


class EdgeConv(nn.Module):
    def __init__(self, dim_in: int, dim_out: int, aggr: str = "sum"):
        super().__init__()
        self.lin = nn.Linear(dim_in, dim_out)
        self.aggr = aggr

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        src, dst = edge_index[0], edge_index[1]
        msg = self.lin(x).index_select(0, src)
        out = torch.zeros(x.size(0), msg.size(1))
        if self.aggr == "sum":
            return out.index_add_(0, dst, msg)
        return out.scatter_reduce(0, dst, msg, reduce=self.aggr, include_self=False)


def normalized_adjacency(edge_index: torch.Tensor, n: int) -> torch.Tensor:
    """Row-normalised adjacency with self loops, D^-1 (A + I), kept sparse."""
    loops = torch.arange(n).repeat(2, 1)
    ei = torch.cat([edge_index, loops], dim=1)
    adj = torch.sparse_coo_tensor(ei, torch.ones(ei.size(1)), (n, n)).coalesce()
    deg = torch.sparse.sum(adj, dim=1).to_dense()
    return adj / deg.unsqueeze(1)


def normalized_by_values(edge_index: torch.Tensor, n: int) -> torch.Tensor:
    adj = torch.sparse_coo_tensor(edge_index, torch.ones(edge_index.size(1)), (n, n))
    adj = (adj + torch.eye(n).to_sparse()).coalesce()
    deg = torch.sparse.sum(adj, dim=1).to_dense()
    idx = adj.indices()
    return torch.sparse_coo_tensor(idx, adj.values() / deg[idx[0]], (n, n))


class SparseGCN(nn.Module):
    def __init__(self, dim_in: int, dim_out: int, product: str = "mm"):
        super().__init__()
        self.lin = nn.Linear(dim_in, dim_out)
        self.product = product

    def forward(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        h = self.lin(x)
        if self.product == "hspmm":
            return torch.hspmm(adj, h).to_dense()
        return torch.sparse.mm(adj, h)


def pool(h: torch.Tensor, batch: torch.Tensor, num_graphs: int) -> torch.Tensor:
    out = torch.zeros(num_graphs, h.size(1))
    return out.index_add_(0, batch, h)
