"""The LightningModule: a two-layer classifier, with automatic or manual optimization."""

import pytorch_lightning as pl
import torch
import torch.nn.functional as F


class TableClassifier(pl.LightningModule):
    def __init__(self, lr: float = 0.1, interval: str = "step", manual: bool = False, epoch_log_on_step=False):
        super().__init__()
        self.lr, self.interval, self.epoch_log_on_step = lr, interval, epoch_log_on_step
        self.automatic_optimization = not manual
        self.net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
        self.val_correct = []

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        if not self.automatic_optimization:
            opt = self.optimizers()
            opt.zero_grad()
            self.manual_backward(loss)
            opt.step()
            sch = self.lr_schedulers()
            if self.trainer.is_last_batch:
                sch.step()
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.val_correct.append((logits.argmax(1) == y).float().mean())
        self.log("val_loss", F.cross_entropy(logits, y))

    def on_validation_epoch_end(self):
        acc = torch.stack(self.val_correct).mean()
        self.val_correct.clear()
        self.log("val_acc", acc, on_step=self.epoch_log_on_step, on_epoch=True)

    def predict_step(self, batch, batch_idx, dataloader_idx):
        x, _ = batch
        return self(x).softmax(1)

    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=self.lr)
        if not self.automatic_optimization:
            return opt
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=4, gamma=0.5)
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": self.interval}}
