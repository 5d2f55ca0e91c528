"""The cases: each a configuration of the module, the data and the Trainer a user ran."""

import pytorch_lightning as pl
import torch

from litkit.callbacks import Throughput
from litkit.datamodule import TableData
from litkit.module import TableClassifier

CASES = {
    # the scheduler dict's interval written "steps" (the unit's name), not "step"
    "lt_sched_interval_word": dict(module=dict(interval="steps")),
    # setup(stage) tests for "train", a stage Lightning never passes ("fit")
    "lt_dm_setup_stage_train": dict(data=dict(fit_word="train")),
    # manual optimization steps the scheduler it never configured
    "lt_manual_no_scheduler": dict(module=dict(manual=True)),
    # the epoch-end accuracy logged with on_step=True
    "lt_log_on_step_epoch_end": dict(module=dict(epoch_log_on_step=True)),
    # predict_step written with a required dataloader_idx; one predict loader
    "lt_predict_dataloader_idx": dict(predict=True),
    # one row with an empty label, read in 2 DataLoader workers
    "lt_worker_blank_label": dict(data=dict(workers=2, blank_at=21)),
}


def run(case: str, max_epochs: int) -> None:
    torch.set_num_threads(1)
    cfg = CASES[case]
    model = TableClassifier(**cfg.get("module", {}))
    data = TableData(**cfg.get("data", {}))
    trainer = pl.Trainer(
        accelerator="cpu",
        max_epochs=max_epochs,
        logger=pl.loggers.CSVLogger("/tmp/lt_proj_logs"),
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        callbacks=[Throughput()],
    )
    trainer.fit(model, datamodule=data)
    if cfg.get("predict"):
        preds = trainer.predict(model, datamodule=data)
        print(f"predicted {sum(len(p) for p in preds)} rows", flush=True)
