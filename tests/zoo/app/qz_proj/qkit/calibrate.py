"""Post-training static quantization: prepare, calibrate over the data, convert."""

import torch
import torch.ao.quantization as tq
from torch import nn


def calibrate(model: nn.Module, x: torch.Tensor, engine: str, batch_size: int = 8) -> nn.Module:
    torch.backends.quantized.engine = engine
    model.eval()
    model.qconfig = tq.get_default_qconfig(engine)
    prepared = tq.prepare(model)
    with torch.no_grad():
        for i in range(0, len(x), batch_size):
            prepared(x[i : i + batch_size])
    print(f"calibrated over {len(x)} examples ({engine})")
    return prepared


def convert(prepared: nn.Module) -> nn.Module:
    quantized = tq.convert(prepared)
    print("converted to int8")
    return quantized


def fuse(model: nn.Module) -> nn.Module:
    """Fold the BatchNorm into the hidden Linear before quantization."""
    return tq.fuse_modules(model, [["fc1", "bn1"]])


def finetune(model: nn.Module, x: torch.Tensor, y: torch.Tensor, steps: int = 5) -> nn.Module:
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    model.train()
    for _ in range(steps):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"fine-tuned {steps} steps, loss {loss.item():.3f}")
    return model
