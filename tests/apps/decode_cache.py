"""A loader whose dataset decodes each item (a stand-in for JPEG decoding) and may cache what it decoded.

Its own keys (key=value): steps (STEPS batches, one pass), cache_decoded (false), num_workers (0), decode_ms (25).
- Decoding an item costs DECODE_S (a sleep: the timings hold on a busy 2-core box) and makes a float32
  [3, 128, 128] image (192 KiB, line 44). Without workers the loop waits for every decode (input-bound: 4
  decodes a step against a model step of a few milliseconds); with workers they run side by side.
- cache_decoded=true keeps every decoded image in a dict on the dataset (`self.cache[i] = image`, line 38), as
  datasets that cache decoded samples do; each item is asked for once, so the cache only grows: 0.75 MiB a
  step (BATCH images), in the main process without workers and in the workers with them.

The truth, measured under crashmatrix (inject, 100 steps, both cache_decoded values, `--jobs 2`, the 2-core
box at load about 4): num_workers=0 21.2 s wall, the loop waiting for its batches 15 s of its 17 s of steady
steps; num_workers=4 6.4 s; cache_decoded=true adds 0.77 MB a step to the main process without workers and
to the workers with them, 0.00 without the cache (alone, `report=true` prints the RSS at steps 10 and 100).
"""

import sys
import time

import torch
from torch.utils.data import DataLoader, Dataset

STEPS = 100
BATCH = 4
DECODE_S = 0.025


class Decoded(Dataset):
    def __init__(self, n: int, cache: bool):
        self.n, self.caching, self.cache = n, cache, {}

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        image = self.decode(i)
        if self.caching:
            self.cache[i] = image
        return image

    @staticmethod
    def decode(i: int) -> torch.Tensor:
        time.sleep(DECODE_S)  # the decoder's work
        return torch.full((3, 128, 128), float(i % 255) / 255)


def rss_mb() -> float:
    import os

    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(args: dict) -> None:
    global DECODE_S
    DECODE_S = float(args.get("decode_ms", DECODE_S * 1000)) / 1000  # forked workers inherit it
    steps = int(args.get("steps", STEPS))
    loader = DataLoader(
        Decoded(steps * BATCH, args.get("cache_decoded") == "true"),
        batch_size=BATCH,
        num_workers=int(args.get("num_workers", 0)),
    )
    model = torch.nn.Conv2d(3, 4, 3)
    began, waited, asked = time.monotonic(), 0.0, time.monotonic()
    for step, images in enumerate(loader, start=1):
        waited += time.monotonic() - asked
        model(images).mean().item()
        if args.get("report") == "true" and step in (10, steps):
            print(f"step {step}: main {rss_mb():.1f} MiB", flush=True)
        asked = time.monotonic()
    print(f"{steps} steps in {time.monotonic() - began:.1f} s, {waited:.1f} s of it waiting for batches")


if __name__ == "__main__":
    main(dict(arg.split("=", 1) for arg in sys.argv[1:]))
