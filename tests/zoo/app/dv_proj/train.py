"""A trainer whose device and dtype come from its config: `python train.py --case NAME` (tests/zoo/HELDOUT74.md)."""

import argparse  # noqa: I001 (devkit is this project's own package, imported from its folder)
import os
import tempfile

import torch

from devkit import model as models
from devkit import place, train


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", required=True, choices=sorted(place.CONFIGS))
    args = ap.parse_args()
    cfg = dict(place.CONFIGS[args.case])
    device, dtype = place.resolve(cfg)
    print(f"case {args.case}: device {device}, dtype {dtype}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        cfg["pretrained"] = os.path.join(tmp, "pretrained.pt")
        torch.save(models.Net().state_dict(), cfg["pretrained"])
        model = models.build(cfg, device, dtype)
        loader = train.batches()
        if cfg.get("pin"):
            loader = place.Prefetcher(loader, device, pin=True)
        print(f"final loss {train.fit(model, loader, dtype):.3f}", flush=True)


if __name__ == "__main__":
    main()
