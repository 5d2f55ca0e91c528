"""The program checks its own settings and stops with sys.exit(message): Python prints the message to stderr and
exits 1, with no traceback. The effective batch (32 per step x 3 accumulation steps) is not a multiple of the
8-sample sequence pack."""

import sys


def check_config(cfg: dict) -> None:
    effective = cfg["batch_size"] * cfg["grad_accum"]
    if effective % cfg["pack_size"]:
        sys.exit(
            f"config error: effective batch {effective} (batch_size {cfg['batch_size']} x grad_accum "
            f"{cfg['grad_accum']}) must be a multiple of pack_size {cfg['pack_size']}"
        )


def main() -> None:
    cfg = {"batch_size": 32, "grad_accum": 3, "pack_size": 8, "lr": 3e-4}
    cfg["batch_size"] = cfg["batch_size"] // 2 + 2  # the halved batch of the low-memory preset, plus padding
    print(f"preset: {cfg}")
    check_config(cfg)
    print("training")
