"""torchrun, 2 gloo ranks, Lightning's ddp: rank 1's validation shard holds a label the metric was not built for.

The labels were exported with an "unknown" class (id 4) after the model and its torchmetrics accuracy were set up
for 4 classes. The distributed sampler deals the record to rank 1, whose metric refuses it in its first validation
step; rank 0 goes on to the end of validation and waits for rank 1 there, until torchrun stops it.
"""

import torch
import torch.nn.functional as F
from torch.utils.data import TensorDataset
from torchmetrics.classification import MulticlassAccuracy

from zoo.modes.lk_common import Classifier, loader, records, trainer


class Scored(Classifier):
    def __init__(self) -> None:
        super().__init__(classes=4)
        self.val_acc = MulticlassAccuracy(num_classes=4)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.val_acc(logits.argmax(dim=1), y)
        self.log("val_loss", F.cross_entropy(logits, y), sync_dist=True)
        self.log("val_acc", self.val_acc)


def validation_set() -> TensorDataset:
    x, y = records(32, seed=1).tensors
    y = y.clone()
    y[13] = 4  # exported as "unknown"
    return TensorDataset(x, y)


def run(rank: int, world_size: int) -> None:
    torch.manual_seed(0)
    fit = trainer(devices=world_size, strategy="ddp", num_nodes=1, limit_train_batches=2)
    fit.fit(Scored(), loader(records()), loader(validation_set()))
    print(f"[rank{rank}] done", flush=True)
