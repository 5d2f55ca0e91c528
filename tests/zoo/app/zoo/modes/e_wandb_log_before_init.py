"""A training loop that logs its metrics with wandb.log; wandb.init is called only when the run is not a dry run
(`dry_run` defaults to true here), so the first wandb.log has no run: `You must call wandb.init() before
wandb.log()`."""

import torch
import wandb

CONFIG = {"lr": 0.1, "steps": 3, "dry_run": True}


def setup_logging(config: dict) -> None:
    if not config["dry_run"]:
        wandb.init(project="e-zoo", config=config, mode="offline")


def main() -> None:
    setup_logging(CONFIG)
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=CONFIG["lr"])
    for step in range(CONFIG["steps"]):
        x, y = torch.randn(8, 4), torch.randn(8, 1)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f}", flush=True)
        wandb.log({"loss": loss.item()}, step=step)
