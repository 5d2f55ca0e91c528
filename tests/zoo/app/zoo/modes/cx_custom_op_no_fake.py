"""A top-k routing mask written as a torch.library custom op (its kernel in numpy), used inside a function
given to torch.compile; the op has no fake (meta) implementation, so Dynamo cannot trace it."""

import numpy as np
import torch


@torch.library.custom_op("cx_zoo::topk_mask", mutates_args=())
def topk_mask(scores: torch.Tensor, k: int) -> torch.Tensor:
    a = scores.detach().cpu().numpy()
    idx = np.argsort(-a, axis=-1)[..., :k]
    mask = np.zeros_like(a)
    np.put_along_axis(mask, idx, 1.0, axis=-1)
    return torch.from_numpy(mask)


def route(x: torch.Tensor, gate: torch.nn.Linear) -> torch.Tensor:
    scores = gate(x).softmax(-1)
    return scores * topk_mask(scores, 2)


def main() -> None:
    torch.manual_seed(0)
    gate = torch.nn.Linear(16, 8)
    x = torch.randn(32, 16)
    print(f"eager routing: {route(x, gate).count_nonzero().item()} experts chosen", flush=True)
    compiled = torch.compile(route, backend="eager")
    out = compiled(x, gate)
    print(f"compiled routing: {out.shape}")
