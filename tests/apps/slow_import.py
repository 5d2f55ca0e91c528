"""A small trainer whose main module is slow to import, with DataLoader workers that do not persist.

Its own keys (key=value), for running it alone: epochs (2), start_method (the platform's), num_workers
(0), pin_memory (false). Under crashmatrix's `inject: true` the knobs come from outside instead.
- Importing this module costs SLOW_IMPORT_S (a stand-in for an app whose imports build tables, read
  configs or import heavy libraries) on top of importing torch. The main process pays it once.
- A spawned DataLoader worker starts a fresh interpreter that re-imports the main module (as `__mp_main__`),
  torch and the slow import with it, before its first batch. The workers do not persist, so every epoch
  starts them again. A forked worker is a copy of the main process: it imports nothing.
- pin_memory on a machine without CUDA is ignored by torch (it warns): no cost either way.

Run alone (SLOW_IMPORT_S = 1.0 then; 3.0 since, so that the test's slowdown stands above a loaded box's
noise) on this 2-core machine while other sessions' tests kept its load at 16 to 20, 2 epochs of 8
batches (the script prints `first batches S s of T s`, T counted from after `import torch`):
    start_method=fork  num_workers=2   21.5 s wall; first batches  0.5 s of  8.4 s
    start_method=spawn num_workers=2   94.4 s wall; first batches 48.3 s of 77.1 s
    start_method=spawn num_workers=0   37.5 s wall; first batches  0.0 s of 12.4 s
The load moves every figure (fork with workers took 10.4 s at load 10); only spawn with workers waits for
its first batches. Nothing here fails: each run prints its loss and exits 0.
"""

import multiprocessing
import sys
import time

import torch
from torch.utils.data import DataLoader, Dataset

SLOW_IMPORT_S = 3.0
_started = time.monotonic()
time.sleep(SLOW_IMPORT_S)  # the module's own import work; every spawned worker pays it again


class Pairs(Dataset):
    """32 samples of 8 features and a target: 8 batches of 4 an epoch."""

    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int):
        x = torch.full((8,), float(i) / 32)
        return x, x.sum(dim=0, keepdim=True)


def main(args: dict) -> None:
    if "start_method" in args:
        multiprocessing.set_start_method(args["start_method"], force=True)
    loader = DataLoader(
        Pairs(),
        batch_size=4,
        num_workers=int(args.get("num_workers", 0)),
        pin_memory=args.get("pin_memory", "false") == "true",
    )
    model = torch.nn.Linear(8, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    waited = 0.0
    for _ in range(int(args.get("epochs", 2))):
        asked = time.monotonic()
        for i, (x, y) in enumerate(loader):
            if i == 0:
                waited += time.monotonic() - asked
            loss = torch.nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print(f"first batches {waited:.1f} s of {time.monotonic() - _started:.1f} s; loss {loss.item():.4f}")


if __name__ == "__main__":
    main(dict(arg.split("=", 1) for arg in sys.argv[1:]))
