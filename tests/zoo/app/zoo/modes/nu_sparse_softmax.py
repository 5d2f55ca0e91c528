"""A graph attention layer over a sparse (COO) adjacency: the edge scores stay sparse and are normalised per node
with torch.softmax, which has no kernel for sparse tensors (torch.sparse.softmax does)."""

import torch


def main() -> None:
    torch.manual_seed(0)
    n = 50
    src = torch.randint(0, n, (200,))
    dst = torch.randint(0, n, (200,))
    adj = torch.sparse_coo_tensor(torch.stack([src, dst]), torch.ones(200), (n, n)).coalesce()
    feats = torch.randn(n, 16)
    scores = adj * 0.5
    print(f"{adj._nnz()} edges", flush=True)
    attn = torch.softmax(scores, dim=1)
    out = torch.sparse.mm(attn, feats)
    print(f"out {out.shape}", flush=True)
