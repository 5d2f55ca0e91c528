"""Neighbour sampling in 2 DataLoader workers: each seed's subgraph is grown hop by hop `until it holds 16
nodes`. A seed in a component of 5 nodes never reaches 16: once the frontier is empty the loop keeps going
round with nothing to add, and the main waits for that batch for ever (no DataLoader timeout)."""

import torch
from torch.utils.data import DataLoader, Dataset


def adjacency_lists(n: int) -> list[list[int]]:
    """A ring of n - 5 nodes and, apart, a small ring of 5 (nodes n-5 .. n-1)."""
    big = n - 5
    nbrs = [[(i - 1) % big, (i + 1) % big] for i in range(big)]
    nbrs += [[big + (i - 1) % 5, big + (i + 1) % 5] for i in range(5)]
    return nbrs


class SubgraphSampler(Dataset):
    def __init__(self, n: int, size: int = 16):
        self.nbrs, self.size = adjacency_lists(n), size

    def __len__(self) -> int:
        return len(self.nbrs)

    def __getitem__(self, seed: int) -> torch.Tensor:
        nodes, frontier = {seed}, [seed]
        while len(nodes) < self.size:
            frontier = [m for v in frontier for m in self.nbrs[v] if m not in nodes]
            nodes.update(frontier)
        return torch.tensor(sorted(nodes)[: self.size])


def main() -> None:
    loader = DataLoader(SubgraphSampler(100), batch_size=8, num_workers=2)
    print("sampling subgraphs", flush=True)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {tuple(batch.shape)}", flush=True)
