"""Negative sampling for a contrastive loss: 24 negatives per anchor drawn without replacement from the items not
in the anchor's class; the largest class (16 of 28 items) leaves 12 candidates, and numpy refuses the draw."""

import numpy as np
import torch

NUM_NEG = 24


def sample_negatives(labels: np.ndarray, anchor: int, rng: np.random.Generator) -> np.ndarray:
    candidates = np.flatnonzero(labels != labels[anchor])
    return rng.choice(candidates, size=NUM_NEG, replace=False)


def main() -> None:
    rng = np.random.default_rng(0)
    labels = np.array([0] * 4 + [1] * 16 + [2] * 8)  # 28 items; an anchor of class 1 has 12 negatives
    emb = torch.nn.functional.normalize(torch.randn(len(labels), 8), dim=1)
    total = 0.0
    for anchor in range(len(labels)):
        neg = sample_negatives(labels, anchor, rng)
        total += (emb[anchor] @ emb[torch.from_numpy(neg)].T).mean().item()
        print(f"anchor {anchor}: {len(neg)} negatives", flush=True)
    print(f"mean negative similarity {total / len(labels):.3f}")
