"""Export for serving: TorchScript, as the serving stack loads it."""

import os
import tempfile

import torch

from ywmix.model import Regressor, ServingRegressor


def export_scripted() -> str:
    model = ServingRegressor(Regressor().net).eval()
    print(f"exporting {sum(p.numel() for p in model.parameters())} parameters", flush=True)
    scripted = torch.jit.script(model)
    path = os.path.join(tempfile.gettempdir(), "yw_serving.pt")
    scripted.save(path)
    return path
