"""A debug run turns the logger off and keeps the callbacks of the full run, DeviceStatsMonitor among them.

Lightning refuses the combination when fit starts: the monitor has nowhere to log.
"""

from pytorch_lightning.callbacks import DeviceStatsMonitor

from zoo.modes.lk_common import Classifier, loader, records, trainer

FULL_RUN_CALLBACKS = [DeviceStatsMonitor(cpu_stats=True)]


def main() -> None:
    debug = {"logger": False, "max_epochs": 1, "limit_train_batches": 2}
    trainer(callbacks=FULL_RUN_CALLBACKS, **debug).fit(Classifier(), loader(records()))
