"""Synthetic graphs: rings with random chords, node features, a graph label; batching by node-id offsets."""

import torch
from torch.utils.data import Dataset


def ring_graph(n: int, seed: int, chords: int = 3) -> dict:
    g = torch.Generator().manual_seed(seed)
    src = torch.arange(n)
    dst = (src + 1) % n
    extra_src = torch.randint(0, n, (chords,), generator=g)
    extra_dst = torch.randint(0, n, (chords,), generator=g)
    edge_index = torch.stack([torch.cat([src, dst, extra_src]), torch.cat([dst, src, extra_dst])])
    x = torch.randn(n, 8, generator=g)
    return {"x": x, "edge_index": edge_index, "y": torch.tensor(n % 2)}


def edge_pairs(graph: dict) -> torch.Tensor:
    """The edge list as read from an edge file: one (src, dst) pair a row."""
    return torch.tensor([[int(s), int(d)] for s, d in graph["edge_index"].t()])


def dense_adjacency(graph: dict, n: int) -> torch.Tensor:
    ei = graph["edge_index"]
    return torch.sparse_coo_tensor(ei, torch.ones(ei.size(1)), (n, n)).coalesce()


class GraphSet(Dataset):
    """Graphs of 6 to 13 nodes; with fixed_size, every graph has `fixed_size` nodes and comes as
    (sparse adjacency, features, label), as a molecule set padded to a size would."""

    def __init__(self, count: int = 32, fixed_size: int = 0, drop_edges_every: int = 0):
        self.count, self.fixed_size, self.drop_edges_every = count, fixed_size, drop_edges_every

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int):
        n = self.fixed_size or 6 + i % 8
        graph = ring_graph(n, seed=i)
        if self.drop_edges_every and i % self.drop_edges_every == self.drop_edges_every - 1:
            graph["edge_index"] = graph["edge_index"][:, :0]  # a molecule whose bonds were all filtered out
        if self.fixed_size:
            return dense_adjacency(graph, n), graph["x"], graph["y"]
        return graph


def collate_graphs(graphs: list[dict]) -> dict:
    """One big disconnected graph: node ids of each graph offset by the nodes before it; graphs without
    edges are left out of the message passing."""
    kept = [g for g in graphs if g["edge_index"].size(1) > 0]
    offsets, edges, start = [], [], 0
    for g in kept:
        offsets.append(start)
        edges.append(g["edge_index"] + start)
        start += g["x"].size(0)
    counts = torch.tensor([g["x"].size(0) for g in kept])
    batch = torch.repeat_interleave(torch.arange(len(graphs)), counts)
    return {
        "x": torch.cat([g["x"] for g in kept]),
        "edge_index": torch.cat(edges, dim=1),
        "batch": batch,
        "y": torch.stack([g["y"] for g in kept]),
        "num_graphs": len(kept),
    }
