"""Feature logging: the loop registers a forward hook on the encoder at the top of every step (to catch this
step's features) and never removes its handle, so step 2 runs two hooks, step 3 three; the program's own check
that each step logged one feature map fails on the second step."""

import torch
from torch import nn

FEATS: list[torch.Tensor] = []


def log_features(module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
    FEATS.append(output.detach().mean(dim=0))


def main() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(4):
        FEATS.clear()
        model[0].register_forward_hook(log_features)
        x, y = torch.randn(16, 6), torch.randint(0, 2, (16,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        assert len(FEATS) == 1, f"step {step}: expected 1 feature map, got {len(FEATS)}"
        print(f"step {step} loss {loss.item():.4f}", flush=True)
