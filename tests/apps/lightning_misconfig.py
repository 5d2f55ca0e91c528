"""A tiny Lightning program for crashmatrix's tests: a Trainer that Lightning refuses to build (devices=0)."""

import sys

import pytorch_lightning as pl


def main(argv: list[str]) -> None:
    devices = int(dict(a.split("=", 1) for a in argv).get("devices", "1"))
    pl.Trainer(accelerator="cpu", devices=devices, logger=False, enable_checkpointing=False)
    print(f"Trainer built with devices={devices}")


if __name__ == "__main__":
    main(sys.argv[1:])
