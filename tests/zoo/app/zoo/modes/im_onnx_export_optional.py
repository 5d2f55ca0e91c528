"""After training, the model is exported with `torch.onnx.export`; torch's exporter imports its optional
dependency onnxscript only then, and this environment never installed it: `ModuleNotFoundError: No module named
'onnxscript'` after the training went well."""

import tempfile
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F


def export(model: nn.Module, example: torch.Tensor) -> Path:
    out = Path(tempfile.mkdtemp(prefix="im_onnx_")) / "model.onnx"
    torch.onnx.export(model, (example,), str(out))
    return out


def main() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(64, 8), torch.randint(0, 4, (64,))
    for _ in range(20):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"trained: loss {loss.item():.4f}; exporting", flush=True)
    print(f"exported to {export(model.eval(), x[:1])}")
