"""Per-task heads kept in a plain Python dict (not an nn.ModuleDict), so `model.parameters()` never gives them to
the optimizer; the loop trains "until the loss is below 0.05", which the frozen heads never reach."""

import torch
from torch import nn


class MultiTask(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.trunk = nn.Linear(8, 8)
        self.heads = {"a": nn.Linear(8, 1), "b": nn.Linear(8, 1)}

    def forward(self, x: torch.Tensor) -> dict[str, torch.Tensor]:
        h = torch.tanh(self.trunk(x))
        return {k: head(h).squeeze(-1) for k, head in self.heads.items()}


def main() -> None:
    torch.manual_seed(0)
    model = MultiTask()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(64, 8)
    targets = {"a": x[:, 0] * 3.0, "b": x[:, 1] * -2.0}
    step, loss = 0, torch.tensor(1.0)
    print("training until the loss is below 0.05")
    while loss.item() > 0.05:
        out = model(x)
        loss = sum(nn.functional.mse_loss(out[k], targets[k]) for k in out)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
