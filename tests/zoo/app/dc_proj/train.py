"""A trainer configured by its own dataclasses: `python train.py --case NAME` (tests/zoo/HELDOUT75.md)."""

import argparse  # noqa: I001 (confkit2 is this project's own package, imported from its folder)
import importlib

from confkit2 import checks, train
from confkit2.fields import TrainConfig


def case_aug_list_default() -> None:
    """The augmentation settings, new in this version, give the crop's scales as a list default."""
    augment = importlib.import_module("confkit2.augment")
    print(f"augment {augment.AugmentConfig()}", flush=True)
    train.fit(TrainConfig())


def case_warmup_subclass() -> None:
    """Warmup settings subclass the optimizer's, whose fields all have defaults; warmup_steps has none."""
    sched = importlib.import_module("confkit2.sched")
    print(f"warmup {sched.WarmupConfig(warmup_steps=10)}", flush=True)
    train.fit(TrainConfig())


def case_frozen_lr_decay() -> None:
    """TrainConfig was frozen (so that no one changes it by mistake); the loop decays cfg.lr in place."""
    train.fit(TrainConfig(epochs=3, lr=0.2))


def case_optim_case() -> None:
    """The run's overrides, copied from a paper's table, name the optimizer `Adam`; the enum's values are lowercase."""
    overrides = checks.parse_overrides({"optim": "Adam", "lr": "0.01"})
    train.fit(TrainConfig(lr=overrides["lr"]), overrides["optim"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    args = parser.parse_args()
    globals()[f"case_{args.case}"]()


if __name__ == "__main__":
    main()
