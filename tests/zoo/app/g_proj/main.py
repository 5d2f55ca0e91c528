"""The entry: `python main.py fit --config configs/base.yaml [--config=configs/OTHER.yaml]`, LightningCLI over
g_vision's model and datamodule. Runs go to a fresh scratch folder unless the config names one."""

import tempfile

from g_vision.data import GDataModule
from g_vision.model import GVisionModel
from pytorch_lightning.cli import LightningCLI


def cli_main() -> None:
    LightningCLI(
        GVisionModel,
        GDataModule,
        trainer_defaults={"default_root_dir": tempfile.mkdtemp(prefix="g_proj-")},
    )


if __name__ == "__main__":
    cli_main()
