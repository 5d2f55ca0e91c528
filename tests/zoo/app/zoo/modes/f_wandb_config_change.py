"""A sweep script logs its config with wandb.init(config=...), then a learning-rate finder picks a new lr and
the script records it with wandb.config.update; wandb refuses to change a key the run was started with."""

import os
import tempfile

import torch
import wandb


def find_lr(model: torch.nn.Module) -> float:
    best, best_loss = 0.1, float("inf")
    for lr in (0.3, 0.03, 0.01, 0.003):
        trial = torch.nn.Linear(8, 1)
        trial.load_state_dict(model.state_dict())
        opt = torch.optim.SGD(trial.parameters(), lr=lr)
        x, y = torch.randn(64, 8, generator=torch.Generator().manual_seed(0)), torch.zeros(64, 1)
        for _ in range(5):
            loss = torch.nn.functional.mse_loss(trial(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if loss.item() < best_loss:
            best, best_loss = lr, loss.item()
    return best


def main() -> None:
    torch.manual_seed(0)
    run = wandb.init(
        project="f-sweep",
        mode="offline",
        dir=os.environ.get("WANDB_DIR", tempfile.mkdtemp()),
        config={"lr": 0.1, "batch_size": 64},
    )
    model = torch.nn.Linear(8, 1)
    lr = find_lr(model)
    print(f"lr finder: {lr}", flush=True)
    wandb.config.update({"lr": lr})
    run.finish()
