"""The LightningModule: a tiny CNN, its optimizer from the config (`model.optimizer`, a partial)."""

import threading

import hydra
import pytorch_lightning as pl
import torch
from omegaconf import DictConfig
from torch import nn


class LabelEncoder:
    """Maps class names to indices; thread-safe, since the image-upload thread reads it too."""

    def __init__(self, names: list[str]):
        self._lock = threading.Lock()
        self.index = {name: k for k, name in enumerate(names)}

    def encode(self, name: str) -> int:
        with self._lock:
            return self.index[name]


class ShapesClassifier(pl.LightningModule):
    def __init__(
        self, name: str, width: int, optimizer: DictConfig, keep_encoder: bool = False, contour_steps: bool = False, **_
    ):
        super().__init__()
        self.save_hyperparameters(ignore=["optimizer"])
        self.optimizer_cfg = optimizer
        self.net = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(4),
            nn.Flatten(),
            nn.Linear(width * 16, 3),
        )
        self.keep_encoder, self.contour_steps = keep_encoder, contour_steps
        if keep_encoder:
            self.encoder = LabelEncoder(["circle", "square", "triangle"])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def training_step(self, batch, batch_idx: int) -> torch.Tensor:
        if self.contour_steps:
            images, offsets, direction, labels = batch
            # offsets read in the sample's direction, in whole steps of the contour
            steps = torch.div(offsets, direction.unsqueeze(1), rounding_mode="trunc")
            images = images + 1e-3 * (steps > 0).float().mean()
        else:
            images, labels = batch
        loss = nn.functional.cross_entropy(self(images), labels)
        self.log("train/loss", loss)
        return {"loss": loss, "features": self.net[0](images)}  # the first conv's maps, for the image logger

    def validation_step(self, batch, batch_idx: int) -> None:
        images, labels = batch
        logits = self(images)
        self.log("val/loss", nn.functional.cross_entropy(logits, labels))
        self.log("val/acc", (logits.argmax(1) == labels).float().mean())

    def on_save_checkpoint(self, checkpoint: dict) -> None:
        if self.keep_encoder:
            checkpoint["label_encoder"] = self.encoder

    def configure_optimizers(self):
        make_optimizer = hydra.utils.instantiate(self.optimizer_cfg)  # a partial: the parameters come here
        return make_optimizer(params=self.parameters())
