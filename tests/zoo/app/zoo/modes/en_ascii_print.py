"""A training loop whose progress line holds an arrow (U+2192); the launcher set PYTHONIOENCODING=ascii (as a
minimal container's C locale does), so printing it to stdout fails in the main thread."""

import torch


def main() -> None:
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(32, 4, generator=torch.Generator().manual_seed(0))
    best = float("inf")
    for epoch in range(3):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: loss {best:.3f} \u2192 {loss.item():.3f}", flush=True)
        best = min(best, loss.item())
