"""A nearest-prototype evaluation run in a thread pool beside training; the embeddings come from a model cast to
bfloat16 to save memory, and `torch.cdist` has no bfloat16 kernel on the CPU. The main re-raises it from the
future."""

from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn


def evaluate(embed: nn.Module, prototypes: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> float:
    with torch.no_grad():
        z = embed(x.to(torch.bfloat16))
        dist = torch.cdist(z, prototypes)
    return (dist.argmin(1) == y).float().mean().item()


def main() -> None:
    embed = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)).to(torch.bfloat16)
    prototypes = torch.randn(3, 4, dtype=torch.bfloat16)
    x, y = torch.randn(12, 8), torch.randint(0, 3, (12,))
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="eval") as pool:
        future = pool.submit(evaluate, embed, prototypes, x, y)
        print("training while the evaluation runs", flush=True)
        print(f"prototype accuracy {future.result():.3f}", flush=True)
