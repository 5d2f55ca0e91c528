"""The cases `train.py --case NAME` runs."""

import os
import tempfile

import pytorch_lightning as pl
from pytorch_lightning.callbacks import ModelCheckpoint
from pytorch_lightning.loggers import CSVLogger

from lk_pkg.data import CachedData, PackedRecords, Records, RecordsData
from lk_pkg.model import CachedClassifier, Classifier, PrototypeClassifier, WarmupClassifier


def run_dir() -> str:
    # the launched ranks inherit the environment: every rank writes to one folder
    if "LK_RUN_DIR" not in os.environ:
        os.environ["LK_RUN_DIR"] = tempfile.mkdtemp(prefix="lk_proj-")
    return os.environ["LK_RUN_DIR"]


def trainer(**kwargs) -> pl.Trainer:
    root = run_dir()
    options = dict(
        accelerator="cpu",
        devices=1,
        max_epochs=2,
        default_root_dir=root,
        logger=CSVLogger(root),
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
    )
    options.update(kwargs)
    return pl.Trainer(**options)


def worker_memmove_segv() -> None:
    trainer().fit(Classifier(), RecordsData(PackedRecords(), num_workers=2))


def ddp_rank1_sigbus() -> None:
    data = CachedData(run_dir())
    trainer(devices=2, strategy="ddp", max_epochs=3).fit(CachedClassifier(), data)


def optimizers_tuple() -> None:
    trainer().fit(WarmupClassifier(), RecordsData(Records()))


def resume_weights_only() -> None:
    data = RecordsData(Records())
    keep = ModelCheckpoint(dirpath=os.path.join(run_dir(), "ckpt"), save_last=True, save_weights_only=True)
    trainer(max_epochs=1, callbacks=[keep]).fit(Classifier(), data)
    print(f"resuming from {keep.last_model_path}", flush=True)
    trainer(max_epochs=2).fit(Classifier(), data, ckpt_path=keep.last_model_path)


def bf16_prototypes() -> None:
    trainer(precision="bf16-mixed").fit(PrototypeClassifier(), RecordsData(Records()))


def finetune_max_epochs() -> None:
    data = RecordsData(Records())
    keep = ModelCheckpoint(dirpath=os.path.join(run_dir(), "pretrain"), save_last=True)
    trainer(max_epochs=3, callbacks=[keep]).fit(Classifier(), data)
    print(f"fine-tuning from {keep.last_model_path}", flush=True)
    trainer(max_epochs=1).fit(Classifier(lr=0.01), data, ckpt_path=keep.last_model_path)


CASES = {
    f.__name__: f
    for f in [
        worker_memmove_segv,
        ddp_rank1_sigbus,
        optimizers_tuple,
        resume_weights_only,
        bf16_prototypes,
        finetune_max_epochs,
    ]
}
