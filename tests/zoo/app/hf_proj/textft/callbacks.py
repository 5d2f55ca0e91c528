"""Trainer callbacks: early stopping on an evaluation metric, a sample logger, a checkpoint uploader."""

import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


class Callback:
    def on_evaluate(self, trainer, metrics: dict) -> None:
        pass

    def on_save(self, trainer, checkpoint: Path) -> None:
        pass

    def on_train_end(self, trainer) -> None:
        pass


class EarlyStopping(Callback):
    def __init__(self, metric: str, patience: int) -> None:
        self.metric = metric
        self.patience = patience
        self.best = float("inf")
        self.bad = 0

    def on_evaluate(self, trainer, metrics: dict) -> None:
        value = metrics[self.metric]
        if value < self.best:
            self.best, self.bad = value, 0
        else:
            self.bad += 1
            trainer.should_stop = self.bad >= self.patience


class SampleLogger(Callback):
    """Writes a few decoded evaluation inputs and predictions beside each checkpoint."""

    def on_save(self, trainer, checkpoint: Path) -> None:
        lines = [f"{trainer.tokenizer.decode(ids)}\t{pred}" for ids, pred in trainer.last_samples]
        (checkpoint / "samples.txt").write_text("\n".join(lines) + "\n")


class CheckpointUploader(Callback):
    """Copies each saved checkpoint to the 'hub' folder in the background, so training does not wait."""

    def __init__(self, hub: Path) -> None:
        self.hub = hub
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="upload")
        self.pending = []

    def _upload(self, checkpoint: Path) -> None:
        time.sleep(1.5)  # the network
        target = self.hub / checkpoint.name
        target.mkdir(parents=True, exist_ok=True)
        for name in ("model.pt", "optimizer.pt"):
            shutil.copyfile(checkpoint / name, target / name)

    def on_save(self, trainer, checkpoint: Path) -> None:
        self.pending.append(self.pool.submit(self._upload, checkpoint))

    def on_train_end(self, trainer) -> None:
        for future in self.pending:
            future.result()
        self.pool.shutdown()
