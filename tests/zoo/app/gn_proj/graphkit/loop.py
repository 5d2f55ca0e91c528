"""Training: graph classification over batched graphs (edge-list message passing), or node
classification over one graph with a sparse GCN."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from graphkit.data import GraphSet, collate_graphs, edge_pairs, ring_graph
from graphkit.layers import EdgeConv, SparseGCN, normalized_adjacency, normalized_by_values, pool


def fit_graphs(cfg: dict) -> None:
    data = GraphSet(drop_edges_every=cfg["drop_edges_every"])
    loader = DataLoader(data, batch_size=4, collate_fn=collate_graphs, num_workers=cfg["workers"])
    conv, head = EdgeConv(8, 16, aggr=cfg["aggr"]), torch.nn.Linear(16, 2)
    opt = torch.optim.Adam([*conv.parameters(), *head.parameters()], lr=0.01)
    for step, b in enumerate(loader):
        h = conv(b["x"], b["edge_index"]).relu()
        loss = F.cross_entropy(head(pool(h, b["batch"], b["num_graphs"])), b["y"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f}", flush=True)


def fit_dense_batches(cfg: dict) -> None:
    loader = DataLoader(GraphSet(fixed_size=10), batch_size=4, num_workers=cfg["workers"])
    gcn, head = SparseGCN(8, 16), torch.nn.Linear(16, 2)
    for step, (adj, x, y) in enumerate(loader):
        h = torch.stack([gcn(x[i], adj[i]) for i in range(len(y))]).mean(1)
        print(f"step {step} loss {F.cross_entropy(head(h), y).item():.3f}", flush=True)


def fit_nodes(cfg: dict) -> None:
    graph = ring_graph(200, seed=0, chords=100)
    n = graph["x"].size(0)
    edge_index = edge_pairs(graph) if cfg["edges"] == "pairs" else graph["edge_index"]
    if cfg["norm"] == "divide":
        adj = normalized_adjacency(edge_index, n)
    else:
        adj = normalized_by_values(edge_index, n)
    gcn, head = SparseGCN(8, 16, product=cfg["product"]), torch.nn.Linear(16, 2)
    opt = torch.optim.SGD([*gcn.parameters(), *head.parameters()], lr=0.1)
    labels = (graph["x"][:, 0] > 0).long()
    for epoch in range(3):
        loss = F.cross_entropy(head(gcn(graph["x"], adj).relu()), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}", flush=True)


def fit(cfg: dict) -> None:
    {"graphs": fit_graphs, "dense": fit_dense_batches, "nodes": fit_nodes}[cfg["task"]](cfg)
