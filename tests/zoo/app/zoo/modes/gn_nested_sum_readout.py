"""Graphs of different sizes kept as one nested tensor of node features (no padding); the readout sums each
graph's nodes with `.sum(dim=1)`, over the ragged node dimension, which nested tensors do not reduce."""

import torch


def node_features(sizes: list[int], dim: int) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return [torch.randn(n, dim, generator=g) for n in sizes]


def main() -> None:
    sizes = [5, 9, 7, 12]
    encoder = torch.nn.Linear(16, 32)
    nodes = torch.nested.nested_tensor(node_features(sizes, 16), layout=torch.strided)
    print(f"batch of {len(sizes)} graphs, {sum(sizes)} nodes", flush=True)
    h = torch.nested.nested_tensor([encoder(t).relu() for t in nodes.unbind()])
    graph_emb = h.sum(dim=1)
    print(f"graph embeddings {tuple(graph_emb.shape)}", flush=True)
