"""A base config and a user's experiment file merged with OmegaConf.merge (no Hydra); the base's `augment` is a
mapping of transform names to settings, the user wrote it as a list of names."""

import os
import tempfile

from omegaconf import OmegaConf

BASE = """\
model: {hidden: 32}
augment:
  flip: {p: 0.5}
  crop: {size: 28}
optim: {lr: 0.05}
"""
USER = """\
optim: {lr: 0.01}
augment:
  - flip
  - jitter
"""


def load(root: str):
    for name, text in (("base.yaml", BASE), ("exp.yaml", USER)):
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    base = OmegaConf.load(os.path.join(root, "base.yaml"))
    exp = OmegaConf.load(os.path.join(root, "exp.yaml"))
    return OmegaConf.merge(base, exp)


def main() -> None:
    cfg = load(tempfile.mkdtemp())
    print(OmegaConf.to_yaml(cfg), flush=True)
