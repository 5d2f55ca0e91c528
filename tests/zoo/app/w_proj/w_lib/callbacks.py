"""The callbacks a config may name: Lightning's, registered under their own names."""

from pytorch_lightning.callbacks import EarlyStopping, LearningRateMonitor, ModelCheckpoint

from w_lib.registry import register

for cls in (EarlyStopping, LearningRateMonitor, ModelCheckpoint):
    register(cls)
