"""An evaluation child process (fork) scores macro recall over the rare classes: the mean over the rare classes
that occur in the evaluation split, which holds none of them."""

import multiprocessing as mp
import statistics

import torch

RARE = [7, 8, 9]


def evaluate(targets: torch.Tensor, preds: torch.Tensor) -> None:
    recalls = []
    for c in RARE:
        mask = targets == c
        if mask.any():
            recalls.append((preds[mask] == c).float().mean().item())
    print(f"rare-class macro recall {statistics.mean(recalls):.3f}", flush=True)


def main() -> None:
    torch.manual_seed(0)
    targets = torch.randint(0, 7, (200,))  # the evaluation split holds only the common classes
    preds = torch.randint(0, 10, (200,))
    child = mp.get_context("fork").Process(target=evaluate, args=(targets, preds), name="evaluator")
    child.start()
    child.join()
    if child.exitcode != 0:
        raise SystemExit(f"evaluator exited with code {child.exitcode}")
