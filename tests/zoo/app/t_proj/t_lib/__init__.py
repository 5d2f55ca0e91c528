"""The blob classifier: its DataModule (datamodule.py), LightningModule (model.py), loss (loss.py), metrics
(metrics.py), Callback (callbacks.py) and the training entry (engine.py)."""
