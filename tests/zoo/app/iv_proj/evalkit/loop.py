"""Training a little, then checking and writing predictions."""

import pandas as pd
import torch
from torch.utils.data import DataLoader, TensorDataset

from evalkit.metrics import accuracy
from evalkit.model import Classifier


def train_briefly(model: torch.nn.Module, steps: int = 20) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        x, y = torch.randn(16, 16), torch.randint(0, 10, (16,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def check_deterministic(model: Classifier, x: torch.Tensor) -> None:
    """Two predictions of the same inputs must agree before the model is exported."""
    with torch.no_grad():
        first, second = model(x), model(x)
    assert torch.allclose(first, second), "predictions differ between two calls on the same inputs"


def evaluate(model: Classifier, x: torch.Tensor, y: torch.Tensor, dim: int) -> float:
    model.eval()
    with torch.no_grad():
        preds = model(x).argmax(dim=dim)
    return accuracy(preds, y)


def predict_to_frame(model: Classifier, x: torch.Tensor, drop_last: bool) -> pd.DataFrame:
    frame = pd.DataFrame({"id": range(len(x))})
    loader = DataLoader(TensorDataset(x), batch_size=64, drop_last=drop_last)
    preds: list[int] = []
    model.eval()
    with torch.no_grad():
        for (batch,) in loader:
            preds.extend(model(batch).argmax(dim=1).tolist())
    frame["pred"] = preds
    return frame
