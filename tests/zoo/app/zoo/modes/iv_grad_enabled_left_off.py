"""An evaluation helper calls torch.set_grad_enabled(False) for speed and returns without restoring it; the
fine-tuning that follows builds its loss with no grad_fn, and backward refuses it."""

import torch


def evaluate(model: torch.nn.Module) -> float:
    model.eval()
    torch.set_grad_enabled(False)
    acc = (model(torch.randn(64, 8)).argmax(dim=1) == 0).float().mean().item()
    model.train()
    return acc


def main() -> None:
    model = torch.nn.Linear(8, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    print(f"baseline accuracy {evaluate(model):.3f}", flush=True)
    for step in range(3):
        loss = torch.nn.functional.cross_entropy(model(torch.randn(16, 8)), torch.randint(0, 3, (16,)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
