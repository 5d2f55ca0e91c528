"""Evaluation runs in a separate daemon process (so it dies with the trainer); the evaluator builds its own
DataLoader with 2 workers. A daemonic process may not start children: the evaluator fails at the loader's
first iteration, and the trainer finds it gone when it joins it."""

import multiprocessing as mp

import torch
from torch.utils.data import DataLoader, TensorDataset


def evaluate(weights: torch.Tensor) -> None:
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    loader = DataLoader(data, batch_size=16, num_workers=2)
    correct = 0
    for x, y in loader:
        correct += int(((x @ weights).argmax(1) == y).sum())
    print(f"eval accuracy {correct / len(data):.2f}", flush=True)


def main() -> None:
    weights = torch.randn(8, 2)
    evaluator = mp.Process(target=evaluate, args=(weights,), daemon=True)
    evaluator.start()
    evaluator.join()
    if evaluator.exitcode != 0:
        raise RuntimeError(f"the evaluator exited with code {evaluator.exitcode}")
