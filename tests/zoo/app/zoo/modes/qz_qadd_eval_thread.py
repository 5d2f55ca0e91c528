"""Eager static quantization of a residual block whose skip connection is a plain `out + x` (no
FloatFunctional); the int8 model is checked in an evaluation thread, where the add meets quantized tensors."""

import warnings
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.ao.quantization as tq
from torch import nn

warnings.filterwarnings("ignore")


class Residual(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.quant = tq.QuantStub()
        self.fc = nn.Linear(8, 8)
        self.dequant = tq.DeQuantStub()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.quant(x)
        out = self.fc(x) + x
        return self.dequant(out)


def check(model: nn.Module, x: torch.Tensor) -> float:
    with torch.no_grad():
        return float(model(x).abs().mean())


def main() -> None:
    torch.backends.quantized.engine = "x86"
    model = Residual().eval()
    model.qconfig = tq.get_default_qconfig("x86")
    prepared = tq.prepare(model)
    with torch.no_grad():
        for _ in range(4):
            prepared(torch.randn(16, 8))
    quantized = tq.convert(prepared)
    print("converted; checking the int8 model in the evaluation thread")
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="int8-eval") as pool:
        score = pool.submit(check, quantized, torch.randn(4, 8)).result()
    print(f"int8 output mean {score:.3f}")
