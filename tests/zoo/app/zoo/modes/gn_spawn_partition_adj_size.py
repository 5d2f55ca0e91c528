"""Two partition trainers started with torch.multiprocessing.spawn, each over its own slice of a graph. Each
builds its sparse adjacency with `num_nodes = int(edge_index.max()) + 1`; partition 1's last 3 nodes have no
edges, so its adjacency is 3 rows short of its 50 node features and `torch.sparse.mm` refuses them in that
child. spawn re-raises the child's error in the main."""

import torch
import torch.multiprocessing as mp


def partition(part: int, n: int = 50) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(part)
    linked = n - 3 if part == 1 else n  # partition 1's last 3 nodes were cut off from the rest
    edge_index = torch.randint(0, linked, (2, 4 * n), generator=g)
    edge_index[:, 0] = linked - 1
    return torch.randn(n, 16, generator=g), edge_index


def train(part: int, parts: int) -> None:
    torch.set_num_threads(1)
    x, edge_index = partition(part)
    num_nodes = int(edge_index.max()) + 1
    values = torch.ones(edge_index.size(1))
    adj = torch.sparse_coo_tensor(edge_index, values, (num_nodes, num_nodes)).coalesce()
    lin = torch.nn.Linear(16, 16)
    for _step in range(3):
        h = torch.sparse.mm(adj, lin(x))
        h.pow(2).mean().backward()
    print(f"partition {part}/{parts} trained", flush=True)


def main() -> None:
    print("training 2 partitions", flush=True)
    mp.spawn(train, args=(2,), nprocs=2, join=True)
