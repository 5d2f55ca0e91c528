"""A batched prediction server: requests go to a thread pool, each batch answered with label names."""

from concurrent.futures import ThreadPoolExecutor

import torch

LABELS = ["cat", "dog", "bird", "fish", "horse", "sheep", "cow", "frog", "deer"]  # labels.txt, 9 lines


class Server:
    def __init__(self, model: torch.nn.Module) -> None:
        self.model = model.eval()
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="batcher")

    def _answer(self, batch: torch.Tensor) -> list[str]:
        with torch.no_grad():
            ids = self.model(batch).argmax(dim=1).tolist()
        return [LABELS[i] for i in ids]

    def submit(self, batch: torch.Tensor):
        return self.pool.submit(self._answer, batch)
