"""A training loop over a DataLoader whose hand-written loss clamps the softmax's output in place (to keep the log
away from 0). Softmax saved that output for its backward, so backward refuses it."""

import torch
from torch.utils.data import DataLoader, TensorDataset


def smoothed_nll(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    probs = logits.softmax(dim=-1)
    probs.clamp_(min=1e-4)
    return -probs.gather(1, target[:, None]).log().mean()


def main() -> None:
    torch.manual_seed(0)
    x, y = torch.randn(32, 5), torch.randint(0, 3, (32,))
    loader = DataLoader(TensorDataset(x, y), batch_size=8)
    model = torch.nn.Linear(5, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for xb, yb in loader:
        loss = smoothed_nll(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("done")
