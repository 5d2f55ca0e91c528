"""A shard cache that removes its scratch folder twice: close() at the end of the run, then __del__ when the
interpreter tears the module down. The second rmtree finds nothing: Python prints `Exception ignored in:
<function ShardCache.__del__ ...>` with its traceback, and the run still exits 0 after a good training."""

import os
import shutil
import tempfile

import torch


class ShardCache:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="bshards-")

    def put(self, i: int, t: torch.Tensor) -> None:
        torch.save(t, os.path.join(self.root, f"{i}.pt"))

    def get(self, i: int) -> torch.Tensor:
        return torch.load(os.path.join(self.root, f"{i}.pt"))

    def close(self) -> None:
        shutil.rmtree(self.root)

    def __del__(self):
        shutil.rmtree(self.root)


CACHE = None


def main() -> None:
    global CACHE
    torch.manual_seed(0)
    CACHE = ShardCache()
    for i in range(4):
        CACHE.put(i, torch.randn(16, 8))
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        for i in range(4):
            loss = model(CACHE.get(i)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}", flush=True)
    CACHE.close()
    print("done", flush=True)
