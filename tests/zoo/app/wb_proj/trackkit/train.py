"""The training loop and its cases (each case one way the tracking is set up)."""

import torch
from torch.utils.data import DataLoader

from trackkit import logging as track
from trackkit.images import CLASSES, Corners

CASES = ["table_score_column", "histogram_log_confidence", "config_pairs", "lightning_offline_log_model"]


def model() -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 16 * 16, len(CLASSES)))


def fit(args, run) -> None:
    torch.manual_seed(0)
    net = model()
    opt = torch.optim.SGD(net.parameters(), lr=args.lr)
    loader = DataLoader(Corners(), batch_size=16, shuffle=True)
    step = 0
    for epoch in range(args.epochs):
        for x, y in loader:
            logits = net(x)
            loss = torch.nn.functional.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
            if args.case == "histogram_log_confidence":
                track.log_confidence(run, step, logits)
            else:
                track.log_batch(run, step, loss.item(), x, y, logits, with_score=args.case == "table_score_column")
            step += 1
    run.finish()


def fit_lightning(args) -> None:
    import pytorch_lightning as pl
    from pytorch_lightning.loggers import WandbLogger

    class Classifier(pl.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.net = model()

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self.net(x), y)
            self.log("loss", loss)
            return loss

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=args.lr)

    # no network on the training nodes: the run is synced later; keep the best checkpoints with the run
    logger = WandbLogger(project="trackkit", offline=True, log_model=True)
    trainer = pl.Trainer(max_epochs=args.epochs, logger=logger, accelerator="cpu", enable_progress_bar=False)
    trainer.fit(Classifier(), DataLoader(Corners(), batch_size=16))


def run(args) -> None:
    print(f"case {args.case}", flush=True)
    if args.case == "lightning_offline_log_model":
        fit_lightning(args)
        return
    fit(args, track.start(args, config_style="pairs" if args.case == "config_pairs" else "dict"))
