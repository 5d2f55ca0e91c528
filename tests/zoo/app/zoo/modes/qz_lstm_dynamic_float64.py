"""A dynamically quantized LSTM (quantize_dynamic, int8 weights) given features built with numpy, whose
default dtype is float64: `torch.from_numpy` keeps it, and the quantized LSTM refuses the input."""

import warnings

import numpy as np
import torch
import torch.ao.quantization as tq
from torch import nn

warnings.filterwarnings("ignore")


class Tagger(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(12, 16, batch_first=True)
        self.head = nn.Linear(16, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.lstm(x)
        return self.head(out)


def features(n: int, t: int) -> np.ndarray:
    frames = np.random.default_rng(0).normal(size=(n, t, 12))
    return (frames - frames.mean(axis=1, keepdims=True)) / frames.std(axis=1, keepdims=True)


def main() -> None:
    model = tq.quantize_dynamic(Tagger().eval(), {nn.LSTM, nn.Linear}, dtype=torch.qint8)
    print("quantized the LSTM and the head (dynamic, int8)")
    x = torch.from_numpy(features(4, 20))
    with torch.no_grad():
        tags = model(x).argmax(dim=-1)
    print(f"tags {tuple(tags.shape)}")
