"""An evaluation script outside the training app composes the run's config with Hydra's compose API; to work from
any folder it hands `initialize` the absolute path of the config folder."""

import os
import tempfile

import torch
from hydra import compose, initialize

CONFIG = """\
model: {in_dim: 8, hidden: 16}
eval: {batch_size: 32}
"""


def write_conf() -> str:
    conf = os.path.join(tempfile.mkdtemp(), "conf")
    os.makedirs(conf)
    with open(os.path.join(conf, "config.yaml"), "w") as f:
        f.write(CONFIG)
    return conf


def load_config(conf_dir: str):
    with initialize(config_path=conf_dir, version_base="1.3"):
        return compose(config_name="config")


def main() -> None:
    conf_dir = write_conf()
    print("config folder", conf_dir, flush=True)
    cfg = load_config(conf_dir)
    model = torch.nn.Linear(cfg.model.in_dim, cfg.model.hidden)
    print(model(torch.randn(cfg.eval.batch_size, cfg.model.in_dim)).shape, flush=True)
