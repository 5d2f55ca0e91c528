"""A model traced in a background export thread; its forward returns (logits, None) when no auxiliary head."""

from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self, aux: bool = False):
        super().__init__()
        self.fc = nn.Linear(8, 3)
        self.aux = nn.Linear(8, 2) if aux else None

    def forward(self, x):
        aux = self.aux(x) if self.aux is not None else None
        return self.fc(x), aux


def export(model: nn.Module):
    return torch.jit.trace(model.eval(), torch.randn(2, 8))


def main() -> None:
    torch.set_num_threads(1)
    model = Classifier()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="exporter") as pool:
        future = pool.submit(export, model)
        print("export started in the background; training on", flush=True)
        traced = future.result()
    print(traced.code)
