"""The project's own Callback: after each validation, write the epoch's metrics to a JSON file."""

import json

import pytorch_lightning as pl


class MetricsDump(pl.Callback):
    def __init__(self, path: str):
        self.path = path

    def on_validation_epoch_end(self, trainer, pl_module):
        record = {"epoch": trainer.current_epoch, **trainer.callback_metrics}
        with open(self.path, "a") as f:
            json.dump(record, f)
            f.write("\n")
