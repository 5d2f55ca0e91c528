"""A background thread prefetches the pretrained weights into torch.hub's cache (TORCH_HOME/hub/checkpoints);
the launcher's TORCH_HOME names a path under /dev/null, a file, so making the cache folder fails in the thread.
The main waits for the prefetch and stops when it finds no weights."""

import os
import threading

import torch

done = {}


def prefetch(name: str) -> None:
    cache = os.path.join(torch.hub.get_dir(), "checkpoints")
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, f"{name}.pt")
    torch.save(torch.nn.Linear(8, 2).state_dict(), path)
    done[name] = path


def main() -> None:
    worker = threading.Thread(target=prefetch, args=("encoder",), name="prefetch")
    worker.start()
    worker.join()
    if "encoder" not in done:
        raise RuntimeError("prefetch of 'encoder' failed; no weights to start from")
    model = torch.nn.Linear(8, 2)
    model.load_state_dict(torch.load(done["encoder"]))
