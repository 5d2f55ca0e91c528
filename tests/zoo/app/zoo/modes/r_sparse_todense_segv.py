"""A graph's adjacency built from edges that still carry global node ids (the subgraph was never relabelled):
sparse_coo_tensor does not check its indices by default, and to_dense() writes far outside the dense matrix."""

import torch

# edges of a 100-node subgraph, taken from a 40-million-node graph without mapping ids to 0..99
EDGES = [(0, 1), (1, 2), (2, 31_457_311), (31_457_311, 0)]


def adjacency(edges: list, num_nodes: int) -> torch.Tensor:
    index = torch.tensor(edges, dtype=torch.long).t()
    sparse = torch.sparse_coo_tensor(index, torch.ones(index.shape[1]), (num_nodes, num_nodes))
    return sparse.to_dense()


def main() -> None:
    torch.set_num_threads(1)
    print(adjacency(EDGES, 100).sum())
