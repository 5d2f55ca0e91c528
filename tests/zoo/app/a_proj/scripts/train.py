"""a_proj's entry: `python scripts/train.py --config configs/NAME.yaml [--workers N] [--batch-size N]
[--pin-memory true|false]`; the YAML config names the dataset and the loader's settings, the options override it."""

import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))

import torch  # noqa: E402
import yaml  # noqa: E402
from a_data.build import make_loader  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--config", required=True)
    p.add_argument("--workers", type=int)
    p.add_argument("--batch-size", type=int)
    p.add_argument("--pin-memory", type=lambda s: s == "true")
    p.add_argument("--epochs", type=int)
    return p.parse_args()


def load_config(args: argparse.Namespace) -> dict:
    with open(args.config) as f:
        cfg = yaml.safe_load(f)
    for key in ("workers", "batch_size", "pin_memory", "epochs"):
        if getattr(args, key) is not None:
            cfg[key] = getattr(args, key)
    return cfg


def main() -> None:
    cfg = load_config(parse_args())
    torch.manual_seed(cfg.get("seed", 0))
    root = tempfile.mkdtemp(prefix="a_proj_")
    loader = make_loader(cfg, root)
    model = torch.nn.LazyLinear(4)
    opt = torch.optim.SGD
    optimizer = None
    t0 = time.time()
    print(f"{cfg['dataset']}: workers={cfg['workers']} batch_size={cfg['batch_size']}", flush=True)
    for epoch in range(cfg.get("epochs", 1)):
        for i, batch in enumerate(loader):
            x = batch["x"].flatten(1).float()
            loss = torch.nn.functional.cross_entropy(model(x), batch["y"])
            if optimizer is None:
                optimizer = opt(model.parameters(), lr=0.1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if i % 4 == 0:
                print(f"epoch {epoch} batch {i} loss {loss.item():.3f}", flush=True)
    print(f"done in {time.time() - t0:.1f}s", flush=True)


if __name__ == "__main__":
    main()
