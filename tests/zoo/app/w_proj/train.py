"""w_proj's entry: `python train.py --config configs/NAME.yaml [--set key=value ...]`.

A sweep may also pass `config=NAME` (configs/NAME.yaml) and `key=value` overrides as plain arguments.
"""

import argparse
import sys
from pathlib import Path

import pytorch_lightning as pl

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from w_lib.config import load_config  # noqa: E402
from w_lib.registry import build  # noqa: E402


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", default="configs/base.yaml", help="a YAML file, from the project root")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override one key")
    parser.add_argument("overrides", nargs="*", help="key=value; config=NAME reads configs/NAME.yaml")
    return parser.parse_args(argv)


def main(argv: list[str]) -> None:
    args = parse(argv)
    cfg = load_config(ROOT, args.config, args.set + args.overrides)
    pl.seed_everything(cfg["seed"], verbose=False)
    model = build(cfg["model"])
    data = build(cfg["data"])
    callbacks = [build(spec) for spec in cfg["callbacks"]]
    trainer = pl.Trainer(callbacks=callbacks, **cfg["trainer"])
    trainer.fit(model, datamodule=data)
    if cfg["test"]["run"]:
        trainer.test(model, datamodule=data, ckpt_path=cfg["test"]["ckpt_path"])
    print("done")


if __name__ == "__main__":
    main(sys.argv[1:])
