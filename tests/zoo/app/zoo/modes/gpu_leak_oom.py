"""Evaluation that keeps every batch's logits on the GPU for a metric at the end: memory grows each batch
until CUDA runs out (`.cpu()` forgotten; forums' "CUDA out of memory during validation")."""

import torch

from zoo.data import quiet_torch


def evaluate(model, batches):
    all_logits = []
    for batch in batches:
        with torch.no_grad():
            all_logits.append(model(batch))  # 2 GiB a batch, kept on the GPU
    return torch.cat(all_logits)


def main() -> None:
    quiet_torch()
    model = torch.nn.Linear(1024, 65536).cuda()
    batch = torch.randn(8192, 1024, device="cuda")
    print(evaluate(model, (batch for _ in range(100_000))).shape)
