"""Neighbour sampling in 2 DataLoader workers: each seed's 1-hop subgraph becomes a small sparse adjacency
built with `check_invariants=True` (the program opted in after torch's warning that the checks are off). The
sampler keeps the neighbours' global node ids instead of relabelling them 0..k-1, so the first seed whose
neighbours are numbered past the subgraph's size is refused in the worker."""

import torch
from torch.utils.data import DataLoader, Dataset


def ring_with_chords(n: int) -> list[list[int]]:
    return [[(i - 1) % n, (i + 1) % n, (i * 7) % n] for i in range(n)]


class OneHopSampler(Dataset):
    def __init__(self, n: int):
        self.nbrs = ring_with_chords(n)

    def __len__(self) -> int:
        return len(self.nbrs)

    def __getitem__(self, seed: int) -> torch.Tensor:
        nodes = [seed, *self.nbrs[seed]]
        edge_index = torch.tensor([[seed] * (len(nodes) - 1), nodes[1:]])
        k = len(nodes)
        adj = torch.sparse_coo_tensor(edge_index, torch.ones(k - 1), (k, k), check_invariants=True)
        return adj.to_dense()


def main() -> None:
    loader = DataLoader(OneHopSampler(64), batch_size=8, num_workers=2)
    print("sampling 1-hop subgraphs", flush=True)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {tuple(batch.shape)}", flush=True)
