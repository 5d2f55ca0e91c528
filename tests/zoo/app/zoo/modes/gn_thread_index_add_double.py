"""Message passing split over a thread pool, one shard of destination nodes a thread. The edge weights are
read from a numpy array (float64) and multiply the float32 messages, so each shard's messages are float64;
`index_add_` into the float32 output refuses them in every worker thread, and the main re-raises the first
from `future.result()`."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch


def edge_list(n: int, seed: int) -> tuple[torch.Tensor, np.ndarray]:
    g = torch.Generator().manual_seed(seed)
    edge_index = torch.randint(0, n, (2, 4 * n), generator=g)
    weights = np.random.default_rng(seed).uniform(0.5, 1.5, size=4 * n)  # float64, as numpy makes them
    return edge_index, weights


def propagate_shard(x: torch.Tensor, edge_index: torch.Tensor, weights: np.ndarray, lo: int, hi: int):
    src, dst = edge_index
    keep = (dst >= lo) & (dst < hi)
    msg = x.index_select(0, src[keep]) * torch.from_numpy(weights)[keep].unsqueeze(1)
    out = torch.zeros(hi - lo, x.size(1))
    return out.index_add_(0, dst[keep] - lo, msg)


def main() -> None:
    n = 400
    x = torch.randn(n, 16)
    edge_index, weights = edge_list(n, seed=0)
    bounds = [(lo, min(lo + 100, n)) for lo in range(0, n, 100)]
    print(f"propagating {edge_index.size(1)} edges over {len(bounds)} shards", flush=True)
    with ThreadPoolExecutor(max_workers=4, thread_name_prefix="mp-shard") as pool:
        futures = [pool.submit(propagate_shard, x, edge_index, weights, lo, hi) for lo, hi in bounds]
        h = torch.cat([f.result() for f in futures])
    print(f"propagated: {tuple(h.shape)}", flush=True)
