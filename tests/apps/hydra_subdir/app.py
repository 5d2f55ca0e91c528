"""A Hydra app whose sweep names each job's folder `${hydra.job.override_dirname}` (issue 32's OCR app):
config groups (model: crnn | vit), a key added with + in tests, and a SIGBUS at lr=0.2.

Each job appends one line to `written.txt` in its own output folder, as a trainer writes its logs and
checkpoints there: a folder with two lines is one that two jobs shared."""

import json
import os
import signal

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg: DictConfig) -> None:
    out = HydraConfig.get().runtime.output_dir
    with open(os.path.join(out, "written.txt"), "a") as f:
        num = OmegaConf.select(HydraConfig.get(), "job.num", default=None)  # a multirun's job number
        f.write(json.dumps({"num": num, "config": OmegaConf.to_container(cfg)}) + "\n")
    if cfg.lr == 0.2:
        os.kill(os.getpid(), signal.SIGBUS)


if __name__ == "__main__":
    main()
